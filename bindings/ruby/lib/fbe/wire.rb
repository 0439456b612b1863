# frozen_string_literal: true

module FBE
  # Where a client's or a server's frames go (internal): the core's sink, called inside a
  # native call under the owner's lock. The sink given is
  # - an IO (anything with #write_nonblock: sockets, pipes, files): a frame is written at
  #   once when the IO takes it without waiting, else queued, and the queue is written
  #   (blocking) by #flush, which the owner calls once its lock is released, by one thread
  #   at a time (a thread that finds another writing leaves its frames to it). So neither a
  #   client's lock nor its reader ever waits for a full socket: the reader can always feed
  #   the responses that let the peer go on reading. Frames leave in the order they were
  #   sent. An error writing is raised from the call that met it (after the owner's broken
  #   block: a client resets, since no answer can come any more), and from every later
  #   send, whose frame is then refused;
  # - a String (bytes appended), anything with #call, or with #write only: called at once,
  #   inside the call (an exception refuses the frame: the request is not registered).
  class Outlet
    # broken: called (once, from the thread that met it) with the error of a failed write.
    def initialize(sink, owner, &broken)
      @sink = sink
      @mode = if sink.is_a?(String) then :string
              elsif sink.respond_to?(:call) then :call
              elsif sink.respond_to?(:write_nonblock) then :io
              elsif sink.respond_to?(:write) then :write
              else
                raise ::TypeError, "a #{owner} sends to an IO, a String, or anything with #call; got #{sink.class}"
              end
      @queue = String.new(encoding: Encoding::BINARY)
      @writing = false
      @error = nil
      @mutex = Mutex.new # the queue and the writer's role
      @broken = broken
      @report = false
    end

    attr_reader :sink

    def call(bytes)
      case @mode
      when :string then @sink << bytes
      when :call then @sink.call(bytes)
      when :write then @sink.write(bytes)
      else
        @mutex.synchronize do
          raise @error if @error

          if @queue.empty? && !@writing
            begin
              n = @sink.write_nonblock(bytes, exception: false)
            rescue Exception => e # rubocop:disable Lint/RescueException -- the frame is refused
              @error = e
              @report = true # to the broken block by #flush, outside the owner's lock
              raise
            end
            return nil if n == bytes.bytesize

            bytes = bytes.byteslice(n, bytes.bytesize - n) if n.is_a?(Integer)
          end
          @queue << bytes
        end
      end
      nil
    end

    # Writes what is queued, in order, unless another thread is writing it already (that
    # one writes until the queue is empty: the writer's role is taken and given back
    # under the queue's mutex, so no frame is left behind). Called without the owner's
    # lock. wait: false (a reader loop's thread, which must never wait for a full socket:
    # its peer may be waiting for it to read) leaves the writing to a new thread. Raises
    # the write's error (kept for every later send).
    def flush(wait: true)
      return if @mode != :io

      @broken&.call(@error) if @mutex.synchronize { @report.tap { @report = false } }
      @mutex.synchronize do
        return nil if @writing || @queue.empty?

        @writing = true
      end
      if wait
        drain
      else
        Thread.new { drain rescue nil }.name = "fbe-writer" # rubocop:disable Style/RescueModifier -- kept in @error
      end
      nil
    end

    private

    def drain
      loop do
        chunk = @mutex.synchronize do
          if @queue.empty?
            @writing = false
            return nil
          end
          @queue.dup.tap { @queue.clear }
        end
        begin
          @sink.write(chunk)
        rescue Exception => e # rubocop:disable Lint/RescueException -- kept, and raised again
          @mutex.synchronize do
            @error = e
            @writing = false
            @queue.clear
          end
          @broken&.call(e)
          raise
        end
      end
    end
  end

  # The chunks of a source (internal): an IO read with #readpartial (or #read) until its
  # end, or an Enumerable of Strings. An IO closed meanwhile (IOError) ends it too.
  module Chunks
    def self.each(source, chunk_size = 65_536, &block)
      raise ::ArgumentError, "nothing to read from (no IO given)" if source.nil?

      if source.respond_to?(:readpartial) || source.respond_to?(:read)
        while (chunk = read(source, chunk_size))
          yield chunk
        end
      else
        source.each { |piece| block.call(piece) unless piece.empty? }
      end
      nil
    end

    # The next chunk, or nil at the end (only the read's IOError ends it: one the block
    # raises goes on).
    def self.read(source, chunk_size)
      return source.readpartial(chunk_size) if source.respond_to?(:readpartial)

      chunk = source.read(chunk_size)
      chunk.nil? || chunk.empty? ? nil : chunk
    rescue IOError # EOFError, or the IO closed by another thread
      nil
    end
  end
end
