# frozen_string_literal: true

module FBE
  # Writes every message it is given as one frame (the FBE protocol: messages back to
  # back on a byte stream, dispatched by type id) to a sink: an IO (anything with
  # #write), anything with #call, a binary String buffer (String.new), or a block.
  # package: selects the protocol (default: the schema's root package, which includes
  # the messages of its imports); final: true uses the final (compact) model.
  # Not thread-safe: one sender per thread, or a lock.
  class Sender
    def initialize(schema, sink = nil, package: nil, final: false, &block)
      sink ||= block
      call = if sink.respond_to?(:call) then sink
             elsif sink.respond_to?(:write) then ->(bytes) { sink.write(bytes) }
             elsif sink.is_a?(String) then ->(bytes) { sink << bytes }
             else
               raise ::TypeError, "sink must be an IO, a String, respond to #call, or be a block; got #{sink.class}"
             end
      @schema = schema
      @engine = Native::SenderEngine.new(schema.__core__, call, package&.to_s, final)
    end

    attr_reader :schema

    # Sends one message (an instance of a message type of the protocol); returns the
    # size of its frame. Raises what the sink raised, or an FBE::Error.
    def send_message(message)
      @engine.send_message(message)
    end

    def <<(message)
      send_message(message)
      self
    end

    def bytes_sent
      @engine.bytes_sent
    end

    # Frees the C sender now (the GC does it otherwise).
    def close
      @engine.close
    end
  end

  # Reads frames from bytes fed in chunks of any size; every complete frame is
  # verified, decoded and handed to the block in stream order (without a block, #feed
  # returns the messages). Frames whose type id the protocol does not know are skipped
  # (#skipped). A corrupt frame raises an FBE::Error (its #received: the messages before
  # it, when there is no block) and the receiver starts afresh with the next bytes.
  # limits: (an FBE::Limits, or a Hash of its keywords) is applied to every frame:
  # max_model_size bounds a frame, max_memory what its message may cost. Not thread-safe.
  class Receiver
    def initialize(schema, package: nil, final: false, ordered: false, limits: nil, &handler)
      @schema = schema
      @handler = handler
      @engine = Native::ReceiverEngine.new(schema.__core__, handler, package&.to_s, final, ordered, limits)
    end

    attr_reader :schema

    # Takes the next bytes of the stream; returns the messages they completed (no block)
    # or nil.
    def feed(data)
      @engine.feed(data)
    end

    # Feeds everything from an IO (#readpartial or #read until EOF) or an Enumerable of
    # chunks. Returns the messages when there is no block.
    def receive_from(source, chunk_size: 65_536)
      out = @handler ? nil : []
      each_chunk(source, chunk_size) do |chunk|
        got = begin
          @engine.feed(chunk)
        rescue Error => e
          e.instance_variable_set(:@received, out + (e.received || [])) if out
          raise
        end
        out&.concat(got)
      end
      out
    end

    def reset
      @engine.reset
    end

    def pending
      @engine.pending
    end

    def received
      @engine.received
    end

    def skipped
      @engine.skipped
    end

    def close
      @engine.close
    end

    private

    def each_chunk(source, chunk_size, &block)
      if source.respond_to?(:readpartial)
        loop { yield source.readpartial(chunk_size) }
      elsif source.respond_to?(:read)
        while (chunk = source.read(chunk_size)) && !chunk.empty?
          yield chunk
        end
      else
        source.each { |chunk| block.call(chunk) unless chunk.empty? }
      end
    rescue EOFError
      nil
    end
  end
end
