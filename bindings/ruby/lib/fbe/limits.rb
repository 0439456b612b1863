# frozen_string_literal: true

module FBE
  # The limits against hostile input (fbe_limits in the core's codec.h) as one frozen
  # value: the extension keeps them (FBE::Limits.new gives each keyword to the core,
  # which alone decides the names, the ranges and the error texts); decode, verify,
  # from_json and the receiver take one, or a Hash of the same keywords, as limits:.
  class Limits
    def to_h
      { max_depth: max_depth, max_model_size: max_model_size, max_memory: max_memory }
    end

    def ==(other)
      other.is_a?(Limits) && to_h == other.to_h
    end
    alias eql? ==

    def hash
      [self.class, to_h].hash
    end

    def inspect
      "#<FBE::Limits #{to_h.map { |name, value| "#{name}=#{value}" }.join(', ')}>"
    end
    alias to_s inspect
  end
end
