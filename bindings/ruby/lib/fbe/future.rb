# frozen_string_literal: true

module FBE
  # The answer to a request (FBE::Client#request), to come: pending until the request
  # ends, then fulfilled with the response (nil for a request type without a response,
  # which ends once sent) or failed with an FBE::RejectedError (its #reject: the reject
  # message), FBE::TimeoutError "Timeout!" or FBE::ResetError "Reset client!". It ends
  # exactly once; the core decides how. Thread-safe: any thread may wait on it.
  #
  #   future = client.request(order, timeout: 5)
  #   future.value!        # waits; the response, or raises the error
  #   future.then { |accepted| accepted.order }.value
  #   future.on_complete { |response, error| ... }
  class Future
    def initialize(request = nil)
      @request = request
      @mutex = Mutex.new
      @cond = ConditionVariable.new
      @state = :pending
      @value = nil
      @error = nil
      @callbacks = []
    end

    # The request message this future answers (nil for one #then or #rescue made).
    attr_reader :request

    # :pending, :fulfilled or :failed.
    attr_reader :state

    def pending?
      @state == :pending
    end

    def resolved?
      @state != :pending
    end

    def fulfilled?
      @state == :fulfilled
    end

    def failed?
      @state == :failed
    end

    # Waits until the future is resolved, at most timeout seconds (nil: for as long as it
    # takes); true when it is resolved, false when the wait timed out.
    def wait(timeout = nil)
      return true if resolved?

      @mutex.synchronize do
        if timeout.nil?
          @cond.wait(@mutex) while @state == :pending
        else
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
          while @state == :pending
            left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
            break if left <= 0

            @cond.wait(@mutex, left)
          end
        end
      end
      resolved?
    end

    # The response once resolved (waiting at most timeout seconds); nil when the request
    # failed or the wait timed out.
    def value(timeout = nil)
      wait(timeout) && fulfilled? ? @value : nil
    end

    # The response once resolved (waiting at most timeout seconds); raises the error when
    # the request failed; nil when the wait timed out.
    def value!(timeout = nil)
      return nil unless wait(timeout)
      raise @error if failed?

      @value
    end

    # The error once resolved (waiting at most timeout seconds), or nil.
    def error(timeout = nil)
      wait(timeout) ? @error : nil
    end
    alias reason error

    # Calls the block with (response, error) once the future is resolved (at once when it
    # is): in the thread that resolves it (a reader loop, the watchdog thread, the caller
    # of request for a request that ends as it is sent). An exception it raises goes to
    # that thread, once every other callback of the event has run. Returns self.
    def on_complete(&block)
      raise ::ArgumentError, "on_complete needs a block" unless block

      now = @mutex.synchronize do
        @callbacks << block if @state == :pending
        @state != :pending
      end
      block.call(@value, @error) if now
      self
    end

    # The block with the response, once fulfilled. Returns self.
    def on_success
      on_complete { |value, error| yield value unless error }
    end

    # The block with the error, once failed. Returns self.
    def on_failure
      on_complete { |_, error| yield error if error }
    end

    # A new future: fulfilled with the block's result once this one is fulfilled (the
    # block gets the response), failed with this one's error (the block is not called) or
    # with the exception the block raised.
    def then(&block)
      raise ::ArgumentError, "then needs a block" unless block

      chain { |value, error, out| error ? out.__send__(:resolve, nil, error) : out.__send__(:resolve, block.call(value), nil) }
    end

    # A new future: this one's response, or once failed the block's result (the block
    # gets the error), or the exception the block raised.
    def rescue(&block)
      raise ::ArgumentError, "rescue needs a block" unless block

      chain { |value, error, out| error ? out.__send__(:resolve, block.call(error), nil) : out.__send__(:resolve, value, nil) }
    end

    def inspect
      case @state
      when :pending then "#<FBE::Future pending>"
      when :fulfilled then "#<FBE::Future fulfilled #{@value.inspect}>"
      else "#<FBE::Future failed #{@error.class}: #{@error.message}>"
      end
    end
    alias to_s inspect

    private

    def chain
      out = Future.new
      on_complete do |value, error|
        yield value, error, out
      rescue Exception => e # rubocop:disable Lint/RescueException -- the derived future fails with it
        out.__send__(:resolve, nil, e)
      end
      out
    end

    # Fulfils (error nil) or fails the future, wakes its waiters, then runs its callbacks;
    # the first exception one raised is raised once every one has run. False when it was
    # resolved already (it ends once).
    def resolve(value, error)
      callbacks = @mutex.synchronize do
        return false if @state != :pending

        @value = value
        @error = error
        @state = error ? :failed : :fulfilled
        @cond.broadcast
        @callbacks.tap { @callbacks = nil }
      end
      first = nil
      callbacks.each do |cb|
        cb.call(value, error)
      rescue Exception => e # rubocop:disable Lint/RescueException -- raised once the others ran
        first ||= e
      end
      raise first if first

      true
    end
  end
end
