# frozen_string_literal: true

module FBE
  # A loaded schema: a Module whose constants are the root package's types
  # (schema::Account, schema::State) and, for every imported package, a module of its
  # types named after it (schema::Proto::Account). schema["proto.Account"] and
  # schema[:Account] look types up by name. Immutable: share it between threads.
  class Schema < Module
    SIGNED = [Core::FBE_KIND_INT8, Core::FBE_KIND_INT16, Core::FBE_KIND_INT32, Core::FBE_KIND_INT64].freeze

    # Field names that get no accessor (README "Names"): the methods every Ruby object
    # has (Object's public and protected ones when fbe is loaded: class, send, object_id,
    # hash, freeze, ...), the hooks Ruby itself calls on objects, JSON's to_json and the
    # Struct methods the by-name access and the Hash conversion rest on. Such a field is
    # reached by name (v[:class], v["class"] = 1), by keyword and through to_h.
    RESERVED = (Object.public_instance_methods + Object.protected_instance_methods +
                %i[initialize initialize_copy initialize_clone initialize_dup method_missing
                   respond_to_missing? to_json to_h to_a members deconstruct deconstruct_keys]).to_set.freeze
    # ... and for the readers of views, also what a view is for: to_value.
    VIEW_RESERVED = (RESERVED + %i[to_value]).freeze

    attr_reader :name, :packages, :warnings
    # The core's schema (an fbe_schema), for the introspection functions of FBE::Core
    # (FBE::Core.fbe_schema_find_struct(schema.handle, "proto.Order"), ...).
    attr_reader :handle

    def initialize(handle, warnings)
      super()
      @handle = handle
      @warnings = warnings.freeze
      @name = Core.fbe_package_name(Core.fbe_schema_root(handle))
      pkgs = (0...Core.fbe_schema_package_count(handle)).map { |i| Core.fbe_schema_package_at(handle, i) }
      @packages = pkgs.map { |p| Core.fbe_package_name(p) }.freeze
      @types = {}
      @view_lock = Mutex.new
      by_package = Hash.new { |h, k| h[k] = {} }
      enums = []
      pkgs.each do |pkg|
        pname = Core.fbe_package_name(pkg)
        Core.fbe_package_enum_count(pkg).times do |i|
          e = Core.fbe_package_enum_at(pkg, i)
          mod = FBE.make_enum(e)
          @types[mod.fbe_name] = mod
          by_package[pname][Core.fbe_enum_name(e)] = mod
          enums << [mod.fbe_name, mod]
        end
      end
      structs = []
      pkgs.each do |pkg|
        pname = Core.fbe_package_name(pkg)
        Core.fbe_package_struct_count(pkg).times do |i|
          st = Core.fbe_package_struct_at(pkg, i)
          by_package[pname][Core.fbe_struct_name(st)] = make_struct(st, structs)
        end
      end
      @core = Native.bind(handle, structs, enums)
      @root_types = by_package[@name]
      @root_types.each { |n, t| const_set(n, t) if constant_name?(n) }
      @package_modules = {}
      by_package.each do |pname, types|
        mod = Module.new
        types.each { |n, t| mod.const_set(n, t) if constant_name?(n) }
        @package_modules[pname] = mod
        cname = pname.split(/[._]/).map(&:capitalize).join
        const_set(cname, mod) if pname != @name && constant_name?(cname) && !const_defined?(cname, false)
      end
      freeze_tables
    end

    # The struct class, enum or flags module for "Name" (root package), "package.Name"
    # or a Symbol. Raises FBE::NotFoundError.
    def [](name)
      key = name.to_s
      @types[key] || @root_types[key] or raise Native.type_not_found(@handle, key, "type")
    end

    def key?(name)
      @types.key?(name.to_s) || @root_types.key?(name.to_s)
    end

    # Every struct class and enum/flags module by full name ("proto.Account").
    def types
      @types.dup
    end

    # The types of one package as a module (schema.package("proto")::Account).
    def package(name)
      @package_modules.fetch(name.to_s) do
        raise NotFoundError.new("schema #{@name} has no package #{name}", Core::FBE_ERR_NOT_FOUND)
      end
    end

    def inspect
      "#<FBE::Schema #{@name} (#{@types.size} types in #{@packages.join(', ')})>"
    end
    alias to_s inspect

    # ---- operations on plain values (Hashes or instances); type: class, name or Symbol

    def encode(type, value, final: false)
      Native.encode(struct(type), value, final)
    end

    def decode(type, data, final: false, ordered: false, trusted: false, limits: nil)
      Native.decode(struct(type), data, final, ordered, trusted, limits)
    end

    def verify(type, data, final: false, limits: nil)
      Native.verify(struct(type), data, final, limits)
    end

    def view(type, data, model: :standard, limits: nil)
      Native.view(struct(type), data, model, limits)
    end

    def verify!(type, data, final: false, limits: nil)
      Native.model_size(struct(type), data, final, limits)
    end

    def to_json(type, value, pretty: false)
      Native.to_json(struct(type), value, pretty)
    end

    def from_json(type, text, ordered: false, limits: nil, ignore_unknown: false)
      Native.from_json(struct(type), text, ordered, limits, ignore_unknown)
    end

    def sender(sink = nil, package: nil, final: false, &block)
      Sender.new(self, sink, package: package, final: final, &block)
    end

    def receiver(package: nil, final: false, ordered: false, limits: nil, &handler)
      Receiver.new(self, package: package, final: final, ordered: ordered, limits: limits, &handler)
    end

    # FBE::Client.new(self, ...), FBE::Server.new(self, ...), FBE::Proxy.new(self, ...).
    def client(io = nil, **options, &on_notify)
      Client.new(self, io, **options, &on_notify)
    end

    def server(io = nil, **options)
      Server.new(self, io, **options)
    end

    def proxy(**options, &handler)
      Proxy.new(self, **options, &handler)
    end

    # Releases the C schema now (the GC does it otherwise); its classes then raise.
    def close
      Native.close(@core)
      nil
    end

    def closed?
      Native.closed?(@core)
    end

    # The walk's core object (for Sender/Receiver).
    def __core__
      @core
    end

    private

    def constant_name?(name)
      name.match?(/\A[A-Z]\w*\z/)
    end

    def struct(type)
      cls = type.is_a?(Class) ? type : key?(type) && self[type]
      unless cls.is_a?(Class) && cls.respond_to?(:fbe_name) && cls.fbe_name
        raise Native.type_not_found(@handle, type.to_s, "struct") if type.is_a?(String) || type.is_a?(Symbol)

        raise NotFoundError.new("#{type.inspect} is not a struct of this schema", Core::FBE_ERR_NOT_FOUND)
      end
      cls
    end

    def make_struct(st, made)
      full = Core.fbe_struct_full_name(st)
      return @types[full] if @types.key?(full)

      base_st = Core.fbe_struct_base(st)
      base = base_st && make_struct(base_st, made)
      fields = (0...Core.fbe_struct_field_count(st)).map { |i| Core.fbe_struct_field_at(st, i) }
      names = fields.map { |f| Core.fbe_field_name(f).to_sym }
      cls = names.empty? ? Class.new : Struct.new(*names)
      remove_reserved_accessors(cls, names)
      cls.include(Message)
      cls.extend(MessageClass)
      keys = fields.select { |f| Core.fbe_field_is_key(f) != 0 }.map { |f| Core.fbe_field_name(f).to_sym }
      cls.instance_variable_set(:@fbe_name, full)
      cls.instance_variable_set(:@fbe_short_name, Core.fbe_struct_name(st))
      cls.instance_variable_set(:@fields, names.freeze)
      cls.instance_variable_set(:@keys, keys.freeze)
      cls.instance_variable_set(:@type_id, Core.fbe_struct_type_id(st))
      cls.instance_variable_set(:@message, Core.fbe_struct_is_message(st) != 0)
      cls.instance_variable_set(:@base, base)
      cls.instance_variable_set(:@schema, self)
      # Struct.new gives the class its own inspect; MessageClass#inspect is the one wanted.
      cls.singleton_class.remove_method(:inspect) if cls.singleton_class.instance_methods(false).include?(:inspect)
      @types[full] = cls
      made << [full, cls]
      cls
    end

    public

    # Account::View, made the first time it is asked for (MessageClass#view_class): a
    # reader per field but those VIEW_RESERVED (reached by view[:name]). Made at load, the
    # View classes of a schema of 10^5 structs took a third of its load time.
    def __view_class__(cls)
      @view_lock.synchronize do
        next cls.const_get(:View, false) if cls.const_defined?(:View, false)

        view = Class.new(View)
        view.instance_variable_set(:@value_class, cls)
        Native.define_view_readers(view, cls.fields.reject { |n| VIEW_RESERVED.include?(n) })
        cls.const_set(:View, view)
      end
    end

    private

    # A field with a RESERVED name keeps no accessor: v[:class] reaches the field, and
    # v.class stays the class.
    def remove_reserved_accessors(cls, names)
      # Ruby warns that removing `initialize` or `object_id` "may cause serious problems":
      # what goes here is the field's accessor, which hid them.
      verbose = $VERBOSE
      $VERBOSE = nil
      names.select { |n| RESERVED.include?(n) }.each do |n|
        [n, :"#{n}="].each do |m|
          cls.__send__(:remove_method, m) if cls.method_defined?(m, false) || cls.private_method_defined?(m, false)
        end
      end
    ensure
      $VERBOSE = verbose
    end

    def freeze_tables
      @types.freeze
      @root_types.freeze
      @package_modules.freeze
    end
  end

  # An enum or flags type: a module of Integer constants (State::GOOD), with name
  # lookup. Decoded values are plain Integers, so values the schema does not name
  # survive decode -> encode.
  module Enum
    attr_reader :fbe_name, :values

    def flags?
      @flags
    end

    # The value of a name (Symbol or String): as written in the schema, whatever it is,
    # or in any case when no other member's name differs from it in case only.
    def [](name)
      @values.fetch(name.to_sym) { @upcased[name.to_s.upcase] }
    end

    # The name of a value ("good"), or nil when the schema names none.
    def name_of(value)
      @by_value[value]
    end

    # The text form of a value (docs/TEXT.md, the core's): a name, for flags the names
    # of the values set joined by "|" with any leftover bits as a number
    # (State.text(6) => "initialized|calculated|good"), a number the schema does not name
    # as itself.
    def text(value)
      Native.enum_text(self, value)
    end

    # The value of a text (a String or Symbol): a member's name, for flags names and
    # numbers joined by "|" ("initialized|calculated", "good|64"), as encode reads it;
    # FBE::ArgumentError otherwise.
    def parse(text)
      Native.enum_parse(self, text)
    end

    # Flags: the names of the flags set in value (named combinations included).
    def names_of(value)
      @values.select { |_n, v| v != 0 && (value & v) == v }.keys.map(&:to_s)
    end

    def names
      @values.keys.map(&:to_s)
    end

    def inspect
      "#<FBE #{@flags ? 'flags' : 'enum'} #{@fbe_name}>"
    end
  end

  def self.make_enum(e)
    signed = Schema::SIGNED.include?(Core.fbe_enum_base(e))
    values = {}
    Core.fbe_enum_value_count(e).times do |i|
      v = Core.fbe_enum_value_at(e, i)
      v -= 1 << 64 if signed && v >= 1 << 63
      values[Core.fbe_enum_value_name(e, i).to_sym] = v
    end
    mod = Module.new
    mod.extend(Enum)
    by_value = {}
    values.each { |n, v| by_value[v] ||= n.to_s }
    # Upcased names (the constants, and [] in any case) only where no other member's
    # name upcases the same.
    counts = values.keys.map { |n| n.to_s.upcase }.tally
    upcased = values.to_h { |n, v| [n.to_s.upcase, v] }.select { |n, _v| counts[n] == 1 }
    mod.instance_variable_set(:@fbe_name, Core.fbe_enum_full_name(e))
    mod.instance_variable_set(:@flags, Core.fbe_enum_is_flags(e) != 0)
    mod.instance_variable_set(:@values, values.freeze)
    mod.instance_variable_set(:@by_value, by_value.freeze)
    mod.instance_variable_set(:@upcased, upcased.freeze)
    upcased.each { |n, v| mod.const_set(n, v) if n.match?(/\A[A-Z]\w*\z/) }
    mod
  end

  # ---- loading

  def self.includes(include)
    Array(include).map { |d| d.respond_to?(:to_path) ? d.to_path : d.to_s }
  end
  private_class_method :includes

  def self.load_with(how, arg, include, name = nil)
    loader = Core::Loader.new
    includes(include).each { |d| raise NoMemoryError, "out of memory" if loader.add_include(d) != 0 }
    handle = case how
             when :file then loader.load_file(arg)
             when :string then loader.load_string(arg, name)
             else loader.load_package(arg)
             end
    diags = (0...loader.diagnostic_count).map { |i| loader.diagnostic(i) }
    if handle.nil?
      errors = (0...loader.diagnostic_count).select { |i| loader.diagnostic_is_error(i) != 0 }.map { |i| diags[i] }
      what = { file: arg, string: name, package: "package #{arg}" }[how]
      more = errors.size > 1 ? " (and #{errors.size - 1} more)" : ""
      raise SchemaError.new("cannot load #{what}: #{errors.first || 'schema did not load'}#{more}",
                            Core::FBE_ERR_SCHEMA, "", nil, diags)
    end
    Schema.new(handle, diags)
  end
  private_class_method :load_with

  # Loads a .fbe file and its imports (found next to it, then on the include dirs).
  def self.load(path, include: [])
    load_with(:file, path.respond_to?(:to_path) ? path.to_path : path.to_s, include)
  end

  # Loads a schema from text; name appears in diagnostics.
  def self.load_string(text, include: [], name: "<string>")
    if text.include?("\0")
      raise SchemaError.new("schema text contains a NUL character", Core::FBE_ERR_SCHEMA)
    end

    load_with(:string, text, include, name)
  end

  # Loads package PACKAGE by finding PACKAGE.fbe on the include directories.
  def self.load_package(package, include: [])
    load_with(:package, package.to_s, include)
  end
end
