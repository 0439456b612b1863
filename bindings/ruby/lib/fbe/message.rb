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

    # == / eql? / hash look at the [key] fields (all fields when the struct has none).
    def ==(other)
      cls = FBE.type_of(self)
      FBE.type_of(other) == cls && cls.compared_fields.all? { |f| self[f] == other[f] }
    end

    def eql?(other)
      cls = FBE.type_of(self)
      FBE.type_of(other) == cls && cls.compared_fields.all? { |f| self[f].eql?(other[f]) }
    end

    def hash
      cls = FBE.type_of(self)
      [cls, *cls.compared_fields.map { |f| self[f] }].hash
    end

    # Account(id=1,name="Test",state=good,...) like the reference's generated code (enum
    # and flags fields by name when the schema names the value).
    def inspect
      cls = FBE.type_of(self)
      enums = cls.enum_fields
      parts = cls.fields.map do |f|
        v = self[f]
        "#{f}=#{(enums[f] && v.is_a?(Integer) && enums[f].name_of(v)) || FBE.text(v)}"
      end
      "#{cls.fbe_short_name}(#{parts.join(',')})"
    end
    alias to_s inspect

    # Every field by name (Symbol keys), whatever the name.
    def to_h
      FBE.type_of(self).fields.to_h { |f| [f, self[f]] }
    end
  end

  # Class methods of every struct class.
  module MessageClass
    attr_reader :fbe_name, :fbe_short_name, :fields, :keys, :type_id, :base, :schema, :enum_fields

    def message?
      @message
    end

    # Decodes a model (a String of bytes), verified first: bytes verify rejects raise
    # verify's FBE::Error (message, path, offset). trusted: true decodes without verifying,
    # for bytes you trust (e.g. a sibling type of another schema version). ordered: true
    # gives sets as Arrays and maps as Arrays of [key, value] pairs, keeping the wire order
    # and duplicates. limits: an FBE::Limits or a Hash of its keywords (nil: the defaults).
    def decode(data, final: false, ordered: false, trusted: false, limits: nil)
      Native.decode(self, data, final, ordered, trusted, limits)
    end

    # true when data starts with a valid model of this struct.
    def verify(data, final: false, limits: nil)
      Native.verify(self, data, final, limits)
    end

    # The model's size; raises the reason (an FBE::Error) when data is not valid.
    def verify!(data, final: false, limits: nil)
      Native.model_size(self, data, final, limits)
    end

    def from_json(text, ordered: false, limits: nil)
      Native.from_json(self, text, ordered, limits)
    end

    # The core's deep equality of two values (instances or Hashes) of this struct:
    # every field, floats by bit pattern, decimals by value, collections in order.
    def same_value?(left, right)
      Native.equal(self, left, right)
    end

    def inspect
      "#<FBE struct #{@fbe_name}>"
    end

    def compared_fields
      @compared ||= keys.empty? ? fields : keys
    end
  end

  KERNEL_CLASS = ::Kernel.instance_method(:class)
  private_constant :KERNEL_CLASS

  # The class of any value, also of a struct value with a field named "class" (which
  # shadows Object#class on it: README "Names").
  def self.type_of(value)
    KERNEL_CLASS.bind_call(value)
  end

  # A value as the reference's generated code prints it.
  def self.text(value)
    case value
    when nil then "null"
    when String then value.encoding == Encoding::BINARY ? "bytes[#{value.bytesize}]" : "\"#{value}\""
    when BigDecimal then value.to_s("F").sub(/\.0\z/, "")
    when Array then "[#{value.size}][#{value.map { |v| text(v) }.join(',')}]"
    when Set then "[#{value.size}]{#{value.map { |v| text(v) }.join(',')}}"
    when Hash then "[#{value.size}]<#{value.map { |k, v| "{#{text(k)}->#{text(v)}}" }.join(',')}>"
    else value.inspect
    end
  end
end
