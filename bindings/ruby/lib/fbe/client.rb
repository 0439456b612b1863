# frozen_string_literal: true

require "monitor"

module FBE
  # A client of a package's protocol (docs/CLIENT.md): sends requests and ends each
  # exactly once, by its response, a reject, a timeout or a reset, as the core's
  # fbe_client decides; every other message received is a notification.
  #
  #   client = FBE::Client.new(schema, socket) { |notification| ... }
  #   client.start                                  # a reader thread: socket -> client
  #   accepted = client.request(schema::NewOrder.new(symbol: "EURUSD"), timeout: 5).value!
  #
  # io: where the bytes go (an IO, a String, anything with #call: FBE::Outlet), and what
  # #run, #start and #each read by default. package: the protocol (default: the schema's
  # root package, which includes its imports'); final: the final model; max_pending: the
  # cap on pending requests (0: the core's default, 65,536); limits: of every frame
  # received; ordered: sets and maps of received messages as Arrays (as decode's).
  # clock: nil, the monotonic clock, and a watchdog thread ends timed-out requests;
  # or a callable returning nanoseconds (a scripted clock): then nothing runs by itself,
  # call #watchdog. The block is the notification handler (#on_notify).
  #
  # Thread-safe: any thread may request, send, feed, watchdog or reset; one lock
  # serializes the core's calls. User code (futures' callbacks, the handler, log hooks)
  # runs after the call that caused it, outside that lock, in that call's thread: it may
  # call the client again.
  class Client
    NS = 1_000_000_000
    NEVER = 100 * 365 * 86_400 # seconds: a timeout longer is none

    def initialize(schema, io = nil, package: nil, final: false, max_pending: 0, limits: nil, ordered: false,
                   clock: nil, &on_notify)
      raise ::ArgumentError, "a client needs an io: where its requests go" if io.nil?
      raise ::TypeError, "clock must respond to #call" unless clock.nil? || clock.respond_to?(:call)

      @schema = schema
      @io = io
      @clock = clock
      @outlet = Outlet.new(io, "client") { reset_unless_closed } # a write failed: no answer can come
      @lock = Monitor.new
      @wake = @lock.new_cond
      @engine = Native::ClientEngine.new(schema.__core__, @outlet, package&.to_s, final, max_pending || 0, limits,
                                         ordered)
      @futures = {}
      @token = 0
      @timer = nil
      @wake_at = nil
      @on_notify = on_notify
      @on_send_log = @on_receive_log = nil
    end

    attr_reader :schema, :io

    # One connection's state: not copied (dup and clone raise TypeError).
    def initialize_copy(_other)
      raise ::TypeError, "#{self.class} cannot be copied"
    end

    # Sends message (of a [request] type) and returns its FBE::Future. timeout: seconds
    # (any Numeric; nil, 0 or Float::INFINITY: none). With a block, the block is the future's on_complete
    # (response, error). Raises at once, with nothing sent and nothing pending, when the
    # core refuses: FBE::TypeMismatchError (not a request), FBE::ArgumentError (no id, or a
    # pending request with an equal one), FBE::LimitError (max_pending requests pending),
    # or what the io raised. An io that fails once it took the bytes (a queued write)
    # resets the client, this request's future too, and its error is raised.
    def request(message, timeout: nil, &block)
      timeout_ns = nanoseconds(timeout)
      future = Future.new(message)
      future.on_complete(&block) if block
      engine_call do |events|
        token = (@token += 1)
        @futures[token] = future
        now = self.now
        begin
          @engine.request(events, message, timeout_ns, now, token)
        rescue Exception # rubocop:disable Lint/RescueException -- not pending: forget it, raise
          @futures.delete(token)
          raise
        end
        watch(now + timeout_ns) if timeout_ns.positive? && @clock.nil?
      end
      future
    end

    # Sends any message of the protocol as it is (a notification); the frame's size.
    def send_message(message)
      engine_call { |events| @engine.send_message(events, message) }
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

    # Received bytes, in chunks of any size: responses and rejects end their requests,
    # other messages are notifications (to the handler; without one, returned in an
    # Array). A bad frame raises the core's error (its #received: the notifications before
    # it, without a handler); the pending requests stay.
    def feed(data)
      notified = @on_notify ? nil : []
      engine_call(notified) { |events| @engine.feed(events, data) }
      notified
    rescue Error => e
      e.instance_variable_set(:@received, notified) if notified && e.received.nil?
      raise
    end

    # Ends every pending request whose timeout has passed at now (nanoseconds of the
    # clock; default: the clock's now) with FBE::TimeoutError "Timeout!"; how many.
    def watchdog(now = nil)
      engine_call { |events| @engine.watchdog(events, now.nil? ? self.now : now) }
    end

    # Ends every pending request with FBE::ResetError "Reset client!" and drops a partial
    # frame received. The client goes on (a new connection: reset, then feed its bytes).
    def reset
      engine_call { |events| @engine.reset(events) }
      nil
    end

    # Requests waiting for their answer.
    def pending
      @lock.synchronize { @engine.pending }
    end

    # When the next pending request times out (nanoseconds of the clock), or nil.
    def next_deadline
      @lock.synchronize { @engine.next_deadline }
    end

    def bytes_sent
      @lock.synchronize { @engine.bytes_sent }
    end

    def received
      @lock.synchronize { @engine.received }
    end

    # The clock's now, in nanoseconds.
    def now
      @clock ? Integer(@clock.call) : Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    end

    # The notification handler: every received message that is no pending request's
    # response or reject (events, pushes, late answers). Returns self.
    def on_notify(&block)
      @on_notify = block
      self
    end

    # The log hook of every message sent: its text form (docs/TEXT.md), the same in every
    # language. nil (no block) turns it off. Returns self.
    def on_send_log(&block)
      @on_send_log = block
      @lock.synchronize { @engine.log(!@on_send_log.nil?, !@on_receive_log.nil?) }
      self
    end

    # The log hook of every message received, before its request ends or it is notified.
    def on_receive_log(&block)
      @on_receive_log = block
      @lock.synchronize { @engine.log(!@on_send_log.nil?, !@on_receive_log.nil?) }
      self
    end

    # The reader loop: feeds everything read from io (#readpartial, #read, or an
    # Enumerable of chunks) until its end, then resets the client (no answer can come
    # any more: the pending requests end with FBE::ResetError). Raises what feed raises
    # (a bad frame, a handler's exception), after the reset.
    def run(io = @io, chunk_size: 65_536)
      reading { Chunks.each(io, chunk_size) { |chunk| feed(chunk) } }
      nil
    ensure
      reset_unless_closed
    end

    # #run in a new thread; returns the Thread.
    def start(io = @io, chunk_size: 65_536)
      Thread.new { run(io, chunk_size: chunk_size) }.tap { |t| t.name = "fbe-client-reader" }
    end

    # The reader loop yielding every notification (instead of the handler); an Enumerator
    # without a block (client.each.lazy.select { ... }.first(2)). Resets the client where
    # #run does, not when the block breaks out of the loop.
    def each(io = @io, chunk_size: 65_536)
      return enum_for(:each, io, chunk_size: chunk_size) unless block_given?

      ended = false
      begin
        reading do
          Chunks.each(io, chunk_size) do |chunk|
            got = []
            engine_call(got, handler: false) { |events| @engine.feed(events, chunk) }
            got.each { |message| yield message }
          end
        end
        ended = true
      rescue Exception # rubocop:disable Lint/RescueException -- raised on
        ended = true
        raise
      ensure
        reset_unless_closed if ended
      end
      nil
    end

    # Ends the pending requests (FBE::ResetError) and frees the core's client. A close
    # from inside a call of this client (its io's #call) is refused (FBE::ArgumentError);
    # from another thread it waits for the call in progress. Later calls raise
    # FBE::ArgumentError "the client is closed". The io is not closed.
    def close
      engine_call { |events| @engine.close(events) }
      @lock.synchronize { @wake.signal }
      nil
    end

    def closed?
      @engine.closed?
    end

    def inspect
      "#<FBE::Client #{closed? ? 'closed' : "#{pending} pending"}>"
    end

    private

    # A timeout in seconds as the core's nanoseconds: 0 (none) for nil, 0 and what no
    # clock reaches (Float::INFINITY, past a century); at least 1 ns for any other.
    def nanoseconds(timeout)
      return 0 if timeout.nil?
      raise ::TypeError, "timeout must be a number of seconds, not #{timeout.class}" unless timeout.is_a?(Numeric)
      raise ::ArgumentError, "timeout must be a number of seconds, not #{timeout}" if timeout.to_f.nan?
      raise ::ArgumentError, "timeout must not be negative" if timeout.negative?
      return 0 if timeout.to_f.infinite? || timeout > NEVER

      ns = (timeout * NS).round
      ns.zero? && timeout.positive? ? 1 : ns
    end

    # One call of the core under the lock, with the list its events go to; then the io's
    # queue written and the events run (outside the lock): futures resolved, notifications
    # to the handler (or into notified), log lines to the hooks. The first exception
    # (the call's, else the io's, else a callback's) is raised once all of it ran.
    def engine_call(notified = nil, handler: true)
      events = []
      result = error = nil
      @lock.synchronize do
        begin
          result = yield events
        rescue Exception => e # rubocop:disable Lint/RescueException -- raised below
          error = e
        end
        events.each { |event| event[1] = @futures.delete(event[1]) if event[0] == :end }
        @wake.signal if @timer && @futures.empty? # nothing left to time: the watchdog thread ends
      end
      begin
        @outlet.flush(wait: !Thread.current[:fbe_reader])
      rescue Exception => e # rubocop:disable Lint/RescueException -- raised below
        error ||= e
      end
      dispatch(events, error, notified, handler)
      result
    end

    def dispatch(events, error, notified, handler)
      events.each do |event|
        case event[0]
        when :end then event[1]&.__send__(:resolve, event[3], event[4])
        when :notify
          if handler && @on_notify then @on_notify.call(event[1])
          else notified&.push(event[1])
          end
        when :log then (event[1] == :send ? @on_send_log : @on_receive_log)&.call(event[2])
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- the others run first
        error ||= e
      end
      raise error if error
    end

    # The watchdog thread (a real clock only): started by a request with a timeout, asleep
    # until the core's next deadline (woken when a request falls due sooner), gone once no
    # pending request has a timeout.
    def watch(deadline)
      if @timer
        return unless deadline < @wake_at

        @wake_at = deadline
        @wake.signal
      else
        @wake_at = deadline
        @timer = Thread.new { timer_loop }
        @timer.name = "fbe-client-watchdog"
      end
    end

    def timer_loop
      loop do
        events = []
        @lock.synchronize do
          loop do
            deadline = @engine.closed? ? nil : @engine.next_deadline
            if deadline.nil?
              @timer = nil
              return
            end
            now = self.now
            if deadline <= now
              @engine.watchdog(events, now)
              events.each { |event| event[1] = @futures.delete(event[1]) if event[0] == :end }
              break
            end
            @wake_at = deadline
            @wake.wait((deadline - now).fdiv(NS))
          end
        end
        begin
          dispatch(events, nil, nil, true)
        rescue Exception => e # rubocop:disable Lint/RescueException -- the watchdog goes on
          warn "fbe: a callback raised in the client's watchdog thread: #{e.class}: #{e.message}"
        end
      end
    end

    # Marks the thread as a reader loop's while it feeds: what its callbacks send is then
    # never waited for (FBE::Outlet#flush).
    def reading
      was = Thread.current[:fbe_reader]
      Thread.current[:fbe_reader] = true
      yield
    ensure
      Thread.current[:fbe_reader] = was
    end

    def reset_unless_closed
      reset unless closed?
    rescue Error
      nil # closed meanwhile
    end
  end
end
