# frozen_string_literal: true

module FBE
  # Instance behaviour of every struct class a schema defines (each is a Struct
  # subclass with the schema's fields, in order, plus this module).
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
      Native.to_json(self.class, self, pretty)
    end

    # == / eql? / hash look at the [key] fields (all fields when the struct has none).
    def ==(other)
      other.class == self.class && self.class.compared_fields.all? { |f| self[f] == other[f] }
    end

    def eql?(other)
      other.class == self.class && self.class.compared_fields.all? { |f| self[f].eql?(other[f]) }
    end

    def hash
      [self.class, *self.class.compared_fields.map { |f| self[f] }].hash
    end

    # Account(id=1,name="Test",state=good,...) like the reference's generated code (enum
    # and flags fields by name when the schema names the value).
    def inspect
      enums = self.class.enum_fields
      parts = self.class.fields.map do |f|
        v = self[f]
        "#{f}=#{(enums[f] && v.is_a?(Integer) && enums[f].name_of(v)) || FBE.text(v)}"
      end
      "#{self.class.fbe_short_name}(#{parts.join(',')})"
    end
    alias to_s inspect

    def to_h
      self.class.fields.to_h { |f| [f, self[f]] }
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
    # and duplicates.
    def decode(data, final: false, ordered: false, trusted: false)
      Native.decode(self, data, final, ordered, trusted)
    end

    # true when data starts with a valid model of this struct.
    def verify(data, final: false)
      Native.verify(self, data, final)
    end

    # The model's size; raises the reason (an FBE::Error) when data is not valid.
    def verify!(data, final: false)
      Native.model_size(self, data, final)
    end

    def from_json(text, ordered: false)
      Native.from_json(self, text, ordered)
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
