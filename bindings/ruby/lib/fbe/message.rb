# frozen_string_literal: true

module FBE
  # Instance behaviour of every struct class a schema defines (each is a Struct
  # subclass with the schema's fields, in order, plus this module). A field may be named
  # like any method here but the ones every object has (README "Names"), so these
  # methods call none a field can shadow: FBE.type_of(self), never self.class; self[f].
  module Message
    # Account.new(id: 1, name: "Test") or Account.new(1, "Test"): fields not given take
    # their schema defaults. An unknown keyword raises FBE::UnknownFieldError.
    def initialize(*args, **fields)
      Native.init_struct(self, args, fields)
    end

    # The binary model: standard (versioned) by default, final (compact) with final: true.
    def encode(final: false)
      Native.encode_self(self, final)
    end

    # JSON text with the reference's conventions. (Takes and ignores the generator
    # state the json library passes, so JSON.generate embeds the same text.)
    def to_json(*_state, pretty: false)
      Native.to_json(FBE.type_of(self), self, pretty)
    end

    # == / eql?: the core's deep equality (fbe_msg_equal: every field, floats by bit
    # pattern, decimals by value, collections in order) of two values of the same class.
    def ==(other)
      return Native.view_equal(other, self) if View === other # the same equality, from the view's side

      cls = FBE.type_of(self)
      FBE.type_of(other) == cls && Native.equal(cls, self, other)
    end
    alias eql? ==

    # The hash of the [key] fields (fbe_msg_key_hash), consistent with eql?: instances
    # work as Hash keys and in Sets. A struct without [key] fields hashes to 0.
    def hash
      Native.key_hash(FBE.type_of(self), self)
    end

    # The order of the [key] fields (fbe_msg_key_compare: -1, 0, 1), for sort, min, <,
    # ... (Comparable); nil for another class or a struct without [key] fields.
    def <=>(other)
      cls = FBE.type_of(self)
      return nil unless FBE.type_of(other) == cls && !cls.keys.empty?

      Native.key_compare(cls, self, other)
    end
    include Comparable

    # The core's text form (docs/TEXT.md), the same in every language:
    # Account(id=1,name="Test",state=initialized|calculated|good,...). A value that does
    # not convert (a field set to a wrong value) prints Account(<invalid: MESSAGE>).
    def inspect
      Native.text(self)
    end
    alias to_s inspect

    def pretty_print(printer)
      printer.text(Native.text(self))
    end

    # Plain data, deep: every field by name (Symbol keys, whatever the name), nested
    # structs as Hashes, collections as Arrays, Sets and Hashes of plain data.
    def to_h(&block)
      h = FBE.type_of(self).fields.each_with_index.to_h { |f, i| [f, FBE.plain(self[i])] }
      block ? h.to_h(&block) : h
    end

    # v[:name] and v[:name] = x raise FBE::UnknownFieldError (with the nearest name) for a
    # name the struct does not have.
    def [](name)
      super
    rescue NameError => e
      raise FBE.unknown_field(self, name, e)
    end

    def []=(name, value)
      super
    rescue NameError => e
      raise FBE.unknown_field(self, name, e)
    end

    private

    # dup and clone copy deep: nested structs, collections and strings are the copy's own.
    def initialize_copy(other)
      super
      FBE.type_of(self).fields.each_index { |i| self[i] = FBE.deep_copy(self[i]) }
    end
  end

  # Class methods of every struct class.
  module MessageClass
    attr_reader :fbe_name, :fbe_short_name, :fields, :keys, :type_id, :base, :schema

    def message?
      @message
    end

    # The FBE::View subclass of this struct (Account::View), made the first time it is
    # needed.
    def view_class
      @schema.__view_class__(self)
    end

    def const_missing(name)
      name == :View ? view_class : super
    end

    # Decodes a model (a String of bytes), verified first: bytes verify rejects raise
    # verify's FBE::Error (message, path, offset). trusted: true decodes without verifying,
    # for bytes you trust (e.g. a sibling type of another schema version). ordered: true
    # gives sets as Arrays and maps as Arrays of [key, value] pairs, keeping the wire order
    # and duplicates. limits: an FBE::Limits or a Hash of its keywords (nil: the defaults).
    def decode(data, final: false, ordered: false, trusted: false, limits: nil)
      Native.decode(self, data, final, ordered, trusted, limits)
    end

    # A view of the struct's value in data (Account::View), read in place: verified first
    # (what decode refuses raises the same error), then every field read from the bytes
    # when it is called for. model: :standard or :final; limits: as decode's. The view
    # keeps a frozen snapshot of data (data itself when frozen): changing data afterwards
    # changes nothing the view reads.
    def view(data, model: :standard, limits: nil)
      Native.view(self, data, model, limits)
    end

    # true when data starts with a valid model of this struct.
    def verify(data, final: false, limits: nil)
      Native.verify(self, data, final, limits)
    end

    # The model's size; raises the reason (an FBE::Error) when data is not valid.
    def verify!(data, final: false, limits: nil)
      Native.model_size(self, data, final, limits)
    end

    # A value from its JSON text. Members the struct does not have raise
    # FBE::UnknownFieldError unless ignore_unknown: true (JSON of a newer schema).
    def from_json(text, ordered: false, limits: nil, ignore_unknown: false)
      Native.from_json(self, text, ordered, limits, ignore_unknown)
    end

    # A new instance from plain data (a Hash of fields, Symbol or String keys, nested
    # Hashes for structs: what to_h gives), checked like encode: an unknown name raises
    # FBE::UnknownFieldError, a wrong value its error.
    def from_h(hash)
      Native.from_h(self, hash)
    end

    # The core's deep equality of two values (instances or Hashes) of this struct:
    # every field, floats by bit pattern, decimals by value, collections in order.
    def same_value?(left, right)
      Native.equal(self, left, right)
    end

    def inspect
      "#<FBE struct #{@fbe_name}>"
    end

  end

  KERNEL_CLASS = ::Kernel.instance_method(:class)
  private_constant :KERNEL_CLASS

  # The class of any value, also of a struct value with a field named "class" (which
  # shadows Object#class on it: README "Names").
  def self.type_of(value)
    KERNEL_CLASS.bind_call(value)
  end

  # The error for a name value's struct does not have (Struct#[]'s NameError `error`
  # becomes the core's FBE::UnknownFieldError); error itself for anything else.
  def self.unknown_field(value, name, error)
    return error unless name.is_a?(Symbol) || name.is_a?(String)

    Native.unknown_field(type_of(value), name)
  end

  # Plain data of a value (Struct#to_h, deep): structs as Hashes of their fields.
  def self.plain(value)
    case value
    when Message then value.to_h
    when Array then value.map { |v| plain(v) }
    when Set then Set.new(value) { |v| plain(v) }
    when Hash then value.to_h { |k, v| [plain(k), plain(v)] }
    else value
    end
  end

  # A deep copy of a field's value: structs (their own dup, deep too), collections and
  # strings copied; numbers, nil, true and false are immutable.
  def self.deep_copy(value)
    case value
    when Message, String then value.dup
    when Array then value.map { |v| deep_copy(v) }
    when Set then Set.new(value) { |v| deep_copy(v) }
    when Hash then value.to_h { |k, v| [deep_copy(k), deep_copy(v)] }
    else value
    end
  end
end
