# frozen_string_literal: true

module FBE
  # Where a client's or a server's frames go (internal): the core's sink, called inside a
  # native call under the owner's lock. The sink given is
  # - an IO (anything with #write_nonblock: sockets, pipes, files): a frame is written at
  #   once when the IO takes it without waiting, else queued, and the queue is written
  #   (blocking) by #flush, which the owner calls once its lock is released. So a client's
  #   lock is never held while a socket is full, and its reader can always feed the
  #   responses that let the peer go on reading; frames leave in the order they were sent.
  #   An error writing is raised from the call that met it, and from every later send;
  # - a String (bytes appended), anything with #call, or with #write only: called at once,
  #   inside the call (an exception refuses the frame: the request is not registered).
  class Outlet
    def initialize(sink, owner)
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
      @mutex = Mutex.new  # the queue
      @flush = Mutex.new  # the writes of #flush, one at a time
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
            n = @sink.write_nonblock(bytes, exception: false)
            return nil if n == bytes.bytesize

            bytes = bytes.byteslice(n, bytes.bytesize - n) if n.is_a?(Integer)
          end
          @queue << bytes
        end
      end
      nil
    end

    # Writes what is queued, in order; returns once it is written (or raises the write's
    # error). Called without the owner's lock.
    def flush
      return if @mode != :io || (@queue.empty? && !@writing)

      @flush.synchronize do
        loop do
          chunk = @mutex.synchronize do
            if @queue.empty?
              @writing = false
              nil
            else
              @writing = true
              @queue.dup.tap { @queue.clear }
            end
          end
          return nil unless chunk

          begin
            @sink.write(chunk)
          rescue Exception => e # rubocop:disable Lint/RescueException -- kept, and raised again
            @mutex.synchronize do
              @error = e
              @writing = false
              @queue.clear
            end
            raise
          end
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
