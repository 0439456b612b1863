# frozen_string_literal: true

require "json"
require "fbe"

module FBE
  # The conformance runner behind bin/fbe-conformance: runs conformance records
  # (tests/conformance/) through the Ruby binding, as `fbe conformance` runs them
  # through the C API. Every standard/final record is verified, decoded and compared with
  # its JSON value, then encoded back to the exact bytes; malformed records must be
  # rejected by verify and must decode to an FBE::Error or a value; streams are sent,
  # then received whole, in chunks of every size from 1 to 64 bytes and in random
  # chunks; standard-versioning records are read with the other schema version.
  # Values are decoded with ordered: true (sets as Arrays, maps as [key, value] pairs),
  # so wire order and duplicates are compared too; equality is the core's.
  class Conformance
    class Fail < StandardError; end

    PASS = :pass
    SKIP = :skip
    MASK = (1 << 64) - 1

    attr_reader :passed, :failed, :skipped

    def initialize(includes, out = $stdout)
      @includes = includes
      @out = out
      @cache = {}
      @passed = @failed = @skipped = 0
    end

    def schema_for(package)
      unless @cache.key?(package)
        @cache[package] = begin
          FBE.load_package(package, include: @includes)
        rescue SchemaError => e
          e.diagnostics.each { |line| warn line }
          nil
        end
      end
      @cache[package] or raise Fail, "cannot load schema of package '#{package}'"
    end

    def type_in(schema, name, package)
      schema[name]
    rescue Error
      raise Fail, "no type '#{name}' in package '#{package}'"
    end

    def self.difference(cls, got, want)
      a = Native.to_json(cls, got, false)
      b = Native.to_json(cls, want, false)
      i = 0
      i += 1 while i < a.size && i < b.size && a[i] == b[i]
      start = [i - 30, 0].max
      "decoded value differs at JSON offset #{i}: got ...#{a[start, 60]}... want ...#{b[start, 60]}..."
    rescue Error
      "decoded value differs (and has no JSON form)"
    end

    def self.compare_bytes(got, want, what = "encoded")
      n = [got.bytesize, want.bytesize].min
      i = 0
      i += 1 while i < n && got.getbyte(i) == want.getbyte(i)
      if i < n
        raise Fail, format("%s bytes differ at offset %d: got %02x, want %02x", what, i, got.getbyte(i), want.getbyte(i))
      end
      raise Fail, "#{what} #{got.bytesize} bytes, want #{want.bytesize} (first #{n} equal)" if got.bytesize != want.bytesize
    end

    def self.hex_bytes(rec)
      hex = rec.fetch("hex", "")
      raise Fail, "bad hex" unless hex.is_a?(String) && hex.match?(/\A(?:[0-9a-fA-F]{2})*\z/)

      [hex].pack("H*")
    end

    # ---- standard / final

    def run_model(rec)
      final = rec["format"] == "final"
      return SKIP if rec["verify"] == true && !rec.key?("json") # malformed bytes the reference accepts

      schema = schema_for(rec.fetch("schema", ""))
      cls = type_in(schema, rec.fetch("type", ""), rec["schema"])
      data = self.class.hex_bytes(rec)
      if rec["verify"] == false
        # Must be rejected; the decoder itself (trusted: without the verify that refuses
        # them first) must end in an error or a value, never a crash.
        verified = cls.verify(data, final: final)
        begin
          cls.decode(data, final: final, trusted: true)
        rescue Error
          nil
        end
        raise Fail, "verify accepted malformed bytes" if verified

        return PASS
      end
      size = begin
        cls.verify!(data, final: final)
      rescue Error => e
        raise Fail, "verify rejected valid bytes: #{e.message}"
      end
      raise Fail, "model size #{size}, expected #{rec['size']}" if rec.key?("size") && size != rec["size"]

      got = begin
        cls.decode(data, final: final, ordered: true, trusted: true) # verified above
      rescue Error => e
        raise Fail, "decode failed: #{e.message}"
      end
      want = begin
        cls.from_json(JSON.generate(rec["json"]), ordered: true)
      rescue Error => e
        raise Fail, "cannot read the record's JSON: #{e.message}"
      end
      raise Fail, self.class.difference(cls, got, want) unless cls.same_value?(got, want)

      unless rec["decode_only"]
        encoded = begin
          Native.encode(cls, want, final)
        rescue Error => e
          raise Fail, "encode failed: #{e.message}"
        end
        self.class.compare_bytes(encoded, data)
      end
      PASS
    end

    # ---- streams

    def receive(schema, package, final, data, want, chunk, seed)
      state = { next: 0, why: nil }
      check = lambda do |msg|
        i = state[:next]
        w = want[i]
        state[:why] = if i >= want.size then "received more than the #{want.size} messages sent"
                      elsif FBE.type_of(msg) != FBE.type_of(w) then "message #{i} is a #{FBE.type_of(msg).fbe_name}, want #{FBE.type_of(w).fbe_name}"
                      elsif !FBE.type_of(w).same_value?(msg, w) then "message #{i} (#{FBE.type_of(w).fbe_name}) differs"
                      end
        raise Fail, state[:why] if state[:why]

        state[:next] = i + 1
      end
      how = seed.zero? ? "chunks of" : "random chunks of up to"
      receiver = Receiver.new(schema, package: package, final: final, ordered: true, &check)
      at = 0
      error = nil
      while at < data.bytesize
        n = data.bytesize - at
        if chunk.positive?
          take = chunk
          unless seed.zero?
            seed ^= (seed << 13) & MASK
            seed ^= seed >> 7
            seed ^= (seed << 17) & MASK
            take = 1 + (seed % chunk)
          end
          n = [n, take].min
        end
        begin
          receiver.feed(data.byteslice(at, n))
        rescue Fail
          break
        rescue Error => e
          error = "receiver error: #{e.message}"
          break
        end
        at += n
      end
      raise Fail, "#{how} #{chunk}: #{state[:why]}" if state[:why]
      raise Fail, "#{how} #{chunk}: #{error}" if error
      return if state[:next] == want.size && receiver.pending.zero?

      raise Fail, "#{how} #{chunk}: #{state[:next]} of #{want.size} messages received, #{receiver.pending} bytes left"
    end

    def run_stream(rec)
      final = rec["format"] == "stream-final"
      package = rec.fetch("schema", "")
      schema = schema_for(package)
      data = self.class.hex_bytes(rec)
      items = rec["json"]
      raise Fail, "bad hex or no message list" unless items.is_a?(Array)

      want = items.map do |item|
        name = "#{item['schema']}.#{item['type']}"
        cls = type_in(schema, name, package)
        raise Fail, "#{name}: no \"json\" value" unless item.key?("json")

        begin
          cls.from_json(JSON.generate(item["json"]), ordered: true)
        rescue Error => e
          raise Fail, "#{name}: #{e.message}"
        end
      end
      sent = String.new
      sender = Sender.new(schema, sent, package: package, final: final)
      want.each_with_index do |msg, i|
        sender.send_message(msg)
      rescue Error => e
        raise Fail, "send of message #{i} failed: #{e.message}"
      end
      if sent != data
        n = [sent.bytesize, data.bytesize].min
        i = 0
        i += 1 while i < n && sent.getbyte(i) == data.getbyte(i)
        raise Fail, "sent bytes differ at offset #{i} (sent #{sent.bytesize} bytes, want #{data.bytesize})"
      end
      seed = 0x9E3779B97F4A7C15
      rec.fetch("id", "").each_byte { |c| seed = ((seed ^ c) * 0x100000001B3) & MASK }
      (0..64).each { |chunk| receive(schema, package, final, data, want, chunk, 0) }
      receive(schema, package, final, data, want, 64, seed | 1)
      PASS
    end

    # ---- versioning

    def run_versioning(rec)
      package = rec.fetch("reader_schema", "")
      schema = schema_for(package)
      cls = type_in(schema, "#{package}.#{rec['reader_type']}", package)
      data = self.class.hex_bytes(rec)
      reason = ""
      verified = begin
        cls.verify!(data)
        true
      rescue Error => e
        reason = e.message
        false
      end
      if rec.key?("verify") && verified != rec["verify"]
        raise Fail, "verify says #{verified ? 'valid' : 'invalid'}, want #{rec['verify'] ? 'valid' : 'invalid'}" \
                    "#{reason.empty? ? '' : ": #{reason}"}"
      end
      return PASS unless rec.key?("json")

      got = begin
        cls.decode(data, ordered: true, trusted: true) # verified above, or a sibling type
      rescue Error => e
        raise Fail, "decode failed: #{e.message}"
      end
      want = begin
        cls.from_json(JSON.generate(rec["json"]), ordered: true)
      rescue Error => e
        raise Fail, "cannot read the record's JSON: #{e.message}"
      end
      raise Fail, self.class.difference(cls, got, want) unless cls.same_value?(got, want)

      PASS
    end

    # ---- files

    # [:pass | :skip | :fail, why]
    def run_record(rec)
      case rec["format"]
      when "standard", "final" then [run_model(rec), ""]
      when "stream-standard", "stream-final" then [run_stream(rec), ""]
      when "standard-versioning" then [run_versioning(rec), ""]
      else [:fail, "unknown format '#{rec['format']}'"]
      end
    rescue Fail => e
      [:fail, e.message]
    rescue StandardError => e # anything but an FBE::Error where one was due
      [:fail, "unexpected #{e.class}: #{e.message}"]
    end

    def run_line(path, line_no, line)
      rec = begin
        JSON.parse(line)
      rescue JSON::ParserError => e
        e
      end
      unless rec.is_a?(Hash)
        @out.puts "FAIL #{path}:#{line_no}: #{rec.is_a?(Exception) ? rec.message.lines.first.strip : 'a record must be a JSON object'}"
        @failed += 1
        return
      end
      rc, why = run_record(rec)
      case rc
      when PASS then @passed += 1
      when SKIP then @skipped += 1
      else
        @failed += 1
        @out.puts "FAIL #{rec['id'] || '(no id)'}: #{why}"
      end
    end

    def run_file(path)
      text = begin
        File.read(path, encoding: "UTF-8")
      rescue SystemCallError => e
        warn "#{path}: #{e.message}"
        return false
      end
      text.split("\n").each_with_index { |line, i| run_line(path, i + 1, line) unless line.strip.empty? }
      true
    end

    # fbe-conformance [-I DIR]... FILE.jsonl... -> exit status
    def self.main(argv)
      includes = []
      files = []
      i = 0
      while i < argv.size
        a = argv[i]
        if a == "-I" && i + 1 < argv.size
          includes << argv[i + 1]
          i += 2
          next
        end
        if a.start_with?("-I") && a.size > 2 then includes << a[2..]
        elsif a.start_with?("-") && a != "-"
          files = []
          break
        else files << a
        end
        i += 1
      end
      if files.empty?
        warn "usage: fbe-conformance [-I DIR]... FILE.jsonl..."
        return 2
      end
      runner = new(includes)
      rc = 0
      files.each { |path| rc = 1 unless runner.run_file(path) }
      puts "#{runner.passed} passed, #{runner.failed} failed, #{runner.skipped} skipped"
      $stdout.flush
      runner.failed.positive? ? 1 : rc
    end
  end
end
