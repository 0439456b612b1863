# frozen_string_literal: true

require "monitor"

module FBE
  # The server's side of a package's protocol (docs/CLIENT.md): a receiver of requests
  # whose handlers answer them through a sender.
  #
  #   server = FBE::Server.new(schema, socket)
  #   server.on(schema::NewOrder) do |order|
  #     raise FBE::RejectedError, schema::Reject.new(reason: "too large") if order.quantity > 100
  #     schema::OrderAccepted.new(order: 1)
  #   end
  #   server.run                                    # reads socket to its end
  #
  # A handler returns the reply (the request's response or one of its rejects), or nil
  # for none, or raises FBE::RejectedError with a reject; the core's fbe_reply_prepare
  # checks the reply answers the request (FBE::TypeMismatchError otherwise) and gives it
  # the request's id in what is sent. io, package:, final:, ordered:, limits: as
  # FBE::Client's. Sending (replies, #send_message) is thread-safe; one thread feeds.
  # Handlers and log hooks run inside the feed (a handler may send, reply and feed
  # nothing).
  class Server
    def initialize(schema, io = nil, package: nil, final: false, ordered: false, limits: nil)
      raise ::ArgumentError, "a server needs an io: where its replies go" if io.nil?

      @schema = schema
      @io = io
      @package = package&.to_s
      @outlet = Outlet.new(io, "server")
      @send_lock = Monitor.new
      @feed_lock = Monitor.new
      @handlers = {}
      @fallback = nil
      @sender = Native::SenderEngine.new(schema.__core__, @outlet, @package, final)
      @receiver = Native::ReceiverEngine.new(schema.__core__, method(:dispatch), @package, final, ordered, limits)
    end

    attr_reader :schema, :io

    # One connection's state: not copied (dup and clone raise TypeError).
    def initialize_copy(_other)
      raise ::TypeError, "#{self.class} cannot be copied"
    end

    # The handler of the messages of type (a struct class of the schema, or its name:
    # "NewOrder" of the package, "exchange.NewOrder"); without a type, of every message no
    # handler takes. The block gets the message and returns the reply, or nil. Returns self.
    def on(type = nil, &handler)
      raise ::ArgumentError, "on needs a block: the handler" unless handler

      if type.nil?
        @fallback = handler
      else
        @handlers[type_of(type).fbe_name] = handler
      end
      self
    end

    # Sends reply as the answer to request (fbe_reply_prepare: reply's type must be the
    # request's response or one of its rejects; its id becomes the request's in what is
    # sent). For answers given later than the handler's return. The frame's size.
    def reply(request, reply)
      sending { @sender.reply(request, reply) }
    end

    # Sends any message of the protocol as it is (a notification); the frame's size.
    def send_message(message)
      sending { @sender.send_message(message) }
    end

    def <<(message)
      send_message(message)
      self
    end

    # send(message) is send_message; any other call is Object#send.
    def send(*args, &block)
      return send_message(args[0]) if args.size == 1 && !block && Message === args[0]

      super
    end

    # Received bytes, in chunks of any size: every message to its handler, replies sent as
    # they are returned. A bad frame raises the core's error; a handler's exception stops
    # the feed and goes on (the bytes after that message wait for the next feed).
    def feed(data)
      @feed_lock.synchronize { @receiver.feed(data) }
      nil
    end

    # The reader loop: feeds everything read from io until its end.
    def run(io = @io, chunk_size: 65_536)
      Chunks.each(io, chunk_size) { |chunk| feed(chunk) }
    end

    # #run in a new thread; returns the Thread.
    def start(io = @io, chunk_size: 65_536)
      Thread.new { run(io, chunk_size: chunk_size) }.tap { |t| t.name = "fbe-server-reader" }
    end

    # The log hooks (the text form of every message sent / received); nil turns one off.
    # They run inside the call: they must not send. Return self.
    def on_send_log(&block)
      @send_lock.synchronize { @sender.log = block }
      self
    end

    def on_receive_log(&block)
      @feed_lock.synchronize { @receiver.log = block }
      self
    end

    def bytes_sent
      @sender.bytes_sent
    end

    def received
      @receiver.received
    end

    def pending
      @receiver.pending
    end

    # Frees the core's sender and receiver (refused from inside a call of this server).
    def close
      @feed_lock.synchronize { @receiver.close }
      @send_lock.synchronize { @sender.close }
      nil
    end

    private

    def type_of(type)
      return type if type.is_a?(Class) && type.respond_to?(:fbe_name)

      name = type.to_s
      return @schema[name] if name.include?(".") || @package.nil?

      @schema.key?("#{@package}.#{name}") ? @schema["#{@package}.#{name}"] : @schema[name]
    end

    def sending
      size = @send_lock.synchronize { yield }
      @outlet.flush
      size
    end

    # Every received message (from inside the feed): its handler's reply sent.
    def dispatch(message)
      handler = @handlers[FBE.type_of(message).fbe_name] || @fallback
      return unless handler

      answer = begin
        handler.call(message)
      rescue RejectedError => e
        raise unless e.reject

        e.reject
      end
      return if answer.nil?
      unless Message === answer
        raise TypeMismatchError, "the handler of #{FBE.type_of(message).fbe_name} returned #{FBE.type_of(answer)}: " \
                                 "return the reply (a message) or nil"
      end

      reply(message, answer)
    end
  end

  # A frame a proxy hands over undecoded: its type id, the struct class of the message
  # when the protocol knows the id (else nil), and the frame's bytes (a binary String, its
  # size field included: written as it is, it forwards the message byte for byte).
  Frame = Struct.new(:type_id, :type, :data) do
    def known?
      !type.nil?
    end

    def inspect
      "#<FBE::Frame #{type ? type.fbe_name : 'unknown'} (#{type_id}), #{data.bytesize} bytes>"
    end
    alias_method :to_s, :inspect
  end

  # A proxy of a package's protocol (FORMAT.md 9.5): frames reassembled and checked as a
  # receiver checks them (size, limit, root pointer; with verify: true a frame of a known
  # type is also verified), and handed over undecoded as FBE::Frames, for a router or a
  # gateway that forwards, filters or logs messages without decoding them.
  #
  #   proxy = FBE::Proxy.new(schema) { |frame| upstream.write(frame.data) }
  #   proxy.run(downstream)
  class Proxy
    def initialize(schema, package: nil, final: false, verify: false, limits: nil, &handler)
      @schema = schema
      @handler = handler
      call = handler && ->(type_id, type, data) { handler.call(Frame.new(type_id, type, data)) }
      @engine = Native::ProxyEngine.new(schema.__core__, call, package&.to_s, final, verify, limits)
      @lock = Monitor.new
    end

    attr_reader :schema

    def initialize_copy(_other)
      raise ::TypeError, "#{self.class} cannot be copied"
    end

    # Takes the next bytes of the stream; the frames they completed (without a handler)
    # or nil. A bad frame raises the core's error (its #received: the frames before it).
    def feed(data)
      frames(@lock.synchronize { @engine.feed(data) })
    rescue Error => e
      e.instance_variable_set(:@received, frames(e.received)) if e.received
      raise
    end

    # Every frame read from io (#readpartial, #read, or chunks) until its end; an
    # Enumerator without a block. For a proxy without a handler.
    def each(io, chunk_size: 65_536, &block)
      return enum_for(:each, io, chunk_size: chunk_size) unless block
      raise ::ArgumentError, "this proxy hands its frames to its handler" if @handler

      Chunks.each(io, chunk_size) { |chunk| feed(chunk).each(&block) }
    end

    # The reader loop: feeds everything read from io until its end.
    def run(io, chunk_size: 65_536)
      Chunks.each(io, chunk_size) { |chunk| feed(chunk) }
    end

    def start(io, chunk_size: 65_536)
      Thread.new { run(io, chunk_size: chunk_size) }.tap { |t| t.name = "fbe-proxy-reader" }
    end

    def reset
      @lock.synchronize { @engine.reset }
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
      @lock.synchronize { @engine.close }
    end

    private

    def frames(list)
      list&.map { |type_id, type, data| Frame.new(type_id, type, data) }
    end
  end
end
