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

    # Sends reply as the answer to request (a message of a [request] type): the core's
    # fbe_reply_prepare checks that reply's type is the request's response or one of its
    # rejects (FBE::TypeMismatchError otherwise) and gives it the request's id in what is
    # sent (reply itself is not changed). The frame's size.
    def reply(request, reply)
      @engine.reply(request, reply)
    end

    # The log hook: the text form (docs/TEXT.md) of every message sent, once it is
    # encoded, before the sink takes it; no block turns it off. Returns self.
    def on_log(&block)
      @engine.log = block
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
      Chunks.each(source, chunk_size) do |chunk|
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

    # Every message read from source (an IO, or an Enumerable of chunks) until its end,
    # as it is read; an Enumerator without a block. For a receiver without a handler.
    def each(source, chunk_size: 65_536, &block)
      return enum_for(:each, source, chunk_size: chunk_size) unless block
      raise ::ArgumentError, "this receiver hands its messages to its handler" if @handler

      Chunks.each(source, chunk_size) { |chunk| @engine.feed(chunk).each(&block) }
    end

    # The log hook: the text form of every message received, once it is decoded, before
    # the handler gets it; no block turns it off. Returns self.
    def on_log(&block)
      @engine.log = block
      self
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
  end
end
