# frozen_string_literal: true

# Every conformance record through the Ruby binding.
#
# vectors.jsonl: decode equals the JSON value (checked here field by field against the
# JSON with the conformance README's rules, independently of the core's JSON reader, and
# also against the core's reader), encode gives the bytes exactly (from the JSON value,
# from the decoded objects and from plain Hashes), verify passes with the model size;
# streams go through Sender/Receiver whole and in chunks. malformed.jsonl: verify is false
# and decode raises FBE::Error or returns. malformed-extra.jsonl: strings that are not
# UTF-8 and bad decimals, which verify and decode (trusted too) refuse. versioning.jsonl:
# bytes of one schema version read with the other. And the gem's testee (bin/fbe-testee)
# through the shared conformance runner (tests/conformance/runner) over those files and
# the regression directories.
require "base64"
require "open3"
require "shellwords"
require_relative "helper"

class TestConformance < Minitest::Test
  include Helper
  K = FBE::Core
  VECTORS = Helper.records("vectors.jsonl")
  MODEL = VECTORS.select { |r| %w[standard final].include?(r["format"]) }
  STREAMS = VECTORS.select { |r| r["format"].start_with?("stream-") }
  MALFORMED = Helper.records("malformed.jsonl")
  VALUE_RULES = Helper.records("malformed-extra.jsonl") # strings that are not UTF-8, bad decimals
  VERSIONING = Helper.records("versioning.jsonl")

  # ---- an independent check of decoded values against the JSON value

  def json_key(ktype, text)
    case K.fbe_type_kind(ktype)
    when K::FBE_KIND_STRING, K::FBE_KIND_UUID then text
    when K::FBE_KIND_FLOAT, K::FBE_KIND_DOUBLE then Float(text)
    when K::FBE_KIND_DECIMAL then BigDecimal(text)
    when K::FBE_KIND_BOOL then text == "true"
    else Integer(text)
    end
  end

  def check(t, got, want, path, ordered, pairs)
    where = path.empty? ? "<root>" : path
    kind = K.fbe_type_kind(t)
    case kind
    when K::FBE_KIND_BOOL then assert_same want, got, where
    when K::FBE_KIND_ENUM, K::FBE_KIND_FLAGS then assert_equal want, got, where
    when K::FBE_KIND_FLOAT then assert_equal [want].pack("e"), [got].pack("e"), where
    when K::FBE_KIND_DOUBLE then assert_equal [Float(want)].pack("E"), [got].pack("E"), where
    when K::FBE_KIND_DECIMAL
      assert_kind_of BigDecimal, got, where
      assert_equal BigDecimal(want), got, where
    when K::FBE_KIND_UUID then assert_equal want, got, where
    when K::FBE_KIND_STRING
      assert_equal Encoding::UTF_8, got.encoding, where
      assert_equal want, got, where
    when K::FBE_KIND_BYTES
      assert_equal Encoding::BINARY, got.encoding, where
      assert_equal Base64.strict_decode64(want), got, where
    when K::FBE_KIND_OPTIONAL
      if want.nil? then assert_nil got, where
      else check(K.fbe_type_element(t), got, want, path, ordered, pairs)
      end
    when K::FBE_KIND_STRUCT
      check_struct(K.fbe_type_struct(t), got, want, path, ordered, pairs)
    when K::FBE_KIND_ARRAY, K::FBE_KIND_VECTOR, K::FBE_KIND_LIST, K::FBE_KIND_SET
      if kind == K::FBE_KIND_SET && !ordered
        assert_kind_of Set, got, where
        got = got.to_a
      else
        assert_kind_of Array, got, where
      end
      assert_equal want.size, got.size, where
      got.zip(want).each_with_index { |(g, w), i| check(K.fbe_type_element(t), g, w, "#{path}[#{i}]", ordered, pairs) }
    when K::FBE_KIND_MAP, K::FBE_KIND_HASH
      ktype = K.fbe_type_key(t)
      vtype = K.fbe_type_element(t)
      struct_keys = K.fbe_type_kind(ktype) == K::FBE_KIND_STRUCT
      want_items = struct_keys && pairs ? want : want.to_a
      if ordered then assert_kind_of Array, got, where
      else
        assert_kind_of Hash, got, where
        got = got.to_a
      end
      assert_equal want_items.size, got.size, where
      got.zip(want_items).each_with_index do |((gk, gv), (wk, wv)), i|
        if struct_keys then check(ktype, gk, wk, "#{path}[#{i}].key", ordered, pairs)
        else assert_equal json_key(ktype, wk), gk, "#{where}[#{i}] key"
        end
        check(vtype, gv, wv, "#{path}[#{i}]", ordered, pairs)
      end
    else # integers, char, wchar, timestamp
      assert_kind_of Integer, got, where
      assert_equal want, got, where
    end
  end

  def check_struct(st, got, want, path, ordered, pairs)
    where = path.empty? ? "<root>" : path
    assert_equal K.fbe_struct_full_name(st), got.class.fbe_name, where
    names = (0...K.fbe_struct_field_count(st)).map { |i| K.fbe_field_name(K.fbe_struct_field_at(st, i)) }
    assert_equal names, want.keys, where
    names.each_with_index do |name, i|
      f = K.fbe_struct_field_at(st, i)
      check(K.fbe_field_type(f), got[name.to_sym], want[name], path.empty? ? name : "#{path}.#{name}", ordered, pairs)
    end
  end

  def check_root(schema, rec, got, ordered)
    st = K.fbe_schema_find_struct(schema.handle, rec["type"])
    refute_nil st
    check_struct(st, got, rec["json"], "", ordered, rec["json_form"] == "map-pairs")
  end

  def plain(value)
    case value
    when FBE::Message then value.class.fields.to_h { |f| [f, plain(value[f])] }
    when Array then value.map { |v| plain(v) }
    else value
    end
  end

  # ---- vectors

  MODEL.each do |rec|
    define_method("test_vector_#{rec['id']}") do
      s = Helper.schema(rec["schema"])
      cls = s[rec["type"]]
      final = rec["format"] == "final"
      data = Helper.bytes(rec["hex"])
      text = JSON.generate(rec["json"])

      assert_same true, cls.verify(data, final: final)
      assert_equal rec["size"], cls.verify!(data, final: final)

      got = cls.decode(data, final: final)
      check_root(s, rec, got, false)
      got_ordered = cls.decode(data, final: final, ordered: true)
      check_root(s, rec, got_ordered, true)

      want = cls.from_json(text, ordered: true)
      assert cls.same_value?(got_ordered, want)
      assert_equal got, cls.from_json(text) # == is deep
      # the text form: the same for the decoded value and the one read from JSON, in
      # either container form, and nothing fails to convert
      assert_equal want.inspect, got_ordered.inspect
      assert_equal got_ordered.inspect, got.inspect
      refute_includes got_ordered.inspect, "(<invalid: "

      unless rec["decode_only"]
        assert_equal data, want.encode(final: final)
        assert_equal data, got_ordered.encode(final: final)
        assert_equal data, s.encode(rec["type"], got_ordered, final: final)
        assert_equal data, s.encode(rec["type"], plain(got_ordered), final: final) # plain Hashes
        assert_equal data, got.encode(final: final) unless rec["json_form"] == "map-pairs"
      end
      assert cls.same_value?(cls.from_json(got_ordered.to_json, ordered: true), want)
    end
  end

  STREAMS.each do |rec|
    define_method("test_stream_#{rec['id']}") do
      s = Helper.schema(rec["schema"])
      final = rec["format"] == "stream-final"
      data = Helper.bytes(rec["hex"])
      want = rec["json"].map { |i| s["#{i['schema']}.#{i['type']}"].from_json(JSON.generate(i["json"]), ordered: true) }

      sent = String.new
      sender = FBE::Sender.new(s, sent, package: rec["schema"], final: final)
      sizes = want.map { |m| sender.send_message(m) }
      assert_equal data, sent
      assert_equal data.bytesize, sizes.sum
      assert_equal data.bytesize, sender.bytes_sent

      same = lambda do |got|
        assert_equal want.size, got.size
        got.zip(want).each do |g, w|
          assert_same w.class, g.class
          assert w.class.same_value?(g, w)
        end
      end
      (0..64).each do |chunk|
        r = FBE::Receiver.new(s, package: rec["schema"], final: final, ordered: true)
        step = chunk.zero? ? data.bytesize : chunk
        got = []
        (0...data.bytesize).step(step) { |at| got.concat(r.feed(data.byteslice(at, step))) }
        same.call(got)
        assert_equal 0, r.pending
        assert_equal want.size, r.received
      end
      handled = []
      r = FBE::Receiver.new(s, package: rec["schema"], final: final, ordered: true) { |m| handled << m }
      data.each_byte { |b| assert_nil r.feed(b.chr) }
      same.call(handled)
    end
  end

  MALFORMED.each do |rec|
    define_method("test_malformed_#{rec['id']}") do
      cls = Helper.schema(rec["schema"])[rec["type"]]
      final = rec["format"] == "final"
      data = Helper.bytes(rec["hex"])
      assert_equal false, rec["verify"]
      assert_same false, cls.verify(data, final: final)
      e = assert_raises(FBE::Error) { cls.verify!(data, final: final) }
      refute_empty e.reason
      refused = assert_raises(FBE::Error) { cls.decode(data, final: final) } # decode verifies
      assert_equal e.message, refused.message
      begin # the decoder alone: an error or a value, never a crash
        value = cls.decode(data, final: final, trusted: true)
        assert_kind_of cls, value
      rescue FBE::Error => e
        refute_empty e.reason
      end
    end
  end

  VALUE_RULES.each do |rec|
    define_method("test_value_rules_#{rec['id']}") do
      cls = Helper.schema(rec["schema"])[rec["type"]]
      final = rec["format"] == "final"
      data = Helper.bytes(rec["hex"])
      assert_equal false, rec["verify"]
      assert_same false, cls.verify(data, final: final)
      e = assert_raises(FBE::MalformedError) { cls.verify!(data, final: final) }
      assert e.reason.start_with?("string is not valid UTF-8: ", "decimal "), e.reason
      [false, true].each do |trusted| # the value rules hold for the trusted decode too
        refused = assert_raises(FBE::MalformedError) { cls.decode(data, final: final, trusted: trusted) }
        assert_equal e.message, refused.message
      end
    end
  end

  VERSIONING.each do |rec|
    define_method("test_versioning_#{rec['id']}") do
      s = Helper.schema(rec["reader_schema"])
      cls = s["#{rec['reader_schema']}.#{rec['reader_type']}"]
      data = Helper.bytes(rec["hex"])
      assert_equal rec["verify"], cls.verify(data) if rec.key?("verify")
      if rec.key?("json")
        want = cls.from_json(JSON.generate(rec["json"]), ordered: true)
        # a sibling type whose type id differs does not verify: decode refuses it, the
        # trusted decode reads it (FORMAT.md 8)
        if rec["verify"] == false
          assert_raises(FBE::MalformedError) { cls.decode(data, ordered: true) }
        else
          assert cls.same_value?(cls.decode(data, ordered: true), want)
        end
        assert cls.same_value?(cls.decode(data, ordered: true, trusted: true), want)
      end
    end
  end

  # ---- the shared runner over this gem's testee

  REGRESSIONS = Dir[File.join(Helper::REPO, "tests", "regressions", "differential", "*", "record.jsonl")]
                .map { |f| File.dirname(f) }.sort
  RUNNER_FILES = %w[vectors.jsonl malformed.jsonl malformed-extra.jsonl versioning.jsonl]
                 .map { |n| File.join(Helper::CONFORMANCE, n) } + REGRESSIONS

  # bin/fbe-testee through tests/conformance/runner, as ci/conformance.sh runs it, alone
  # (untyped comparison: no C testee to describe the types; the matrix stage compares
  # typed), every decode and text also through a view (--view): every record runs,
  # nothing fails, only the _meta lines are skipped.
  def test_testee_through_the_runner
    testee = Shellwords.join([RbConfig.ruby, *$LOAD_PATH.flat_map { |d| ["-I", d] },
                              File.expand_path("../bin/fbe-testee", __dir__)])
    known = File.join(Helper::CONFORMANCE, "known-failures", "differential.txt")
    out, err, status = Open3.capture3("python3", File.join(Helper::CONFORMANCE, "runner"), "--describe-testee", "none",
                                      "--known-failures", known, "--view", "--testee", "ruby=#{testee}", *RUNNER_FILES)
    report = out + err
    assert status.success?, report
    lines = RUNNER_FILES.flat_map { |p| File.directory?(p) ? Dir[File.join(p, "*.jsonl")].sort : [p] }
                        .flat_map { |f| File.readlines(f, chomp: true).reject { |l| l.strip.empty? } }
    meta = lines.count { |l| JSON.parse(l).key?("_meta") }
    assert_includes "\n#{out}", "\n#{lines.size - meta} records, 1 testees: ruby\n", report
    assert_includes out, "\nskipped: #{meta}#{meta.positive? ? " (_meta #{meta})" : ''}\n", report
    closing = out[/^(\d+) passed, 0 failed$/, 1]
    assert closing && Integer(closing) > lines.size, report
  end

  # The conversations (docs/TESTEE.md): every script of conversations.jsonl played by this
  # gem's testee as client, server and proxy, each answer held to the script's
  # expectations, and, when the C tool is built (build/release/bin/fbe), to the C
  # testee's answers in every pairing (c x ruby, ruby x c, ruby x ruby).
  def test_conversations_through_the_runner
    testee = Shellwords.join([RbConfig.ruby, *$LOAD_PATH.flat_map { |d| ["-I", d] },
                              File.expand_path("../bin/fbe-testee", __dir__)])
    fbe = File.join(Helper::REPO, "build", "release", "bin", "fbe")
    testees = File.executable?(fbe) ? ["--testee", "c=#{Shellwords.escape(fbe)} testee"] : []
    scripts = File.join(Helper::CONFORMANCE, "conversations.jsonl")
    out, err, status = Open3.capture3("python3", File.join(Helper::CONFORMANCE, "runner"), "--describe-testee", "none",
                                      *testees, "--testee", "ruby=#{testee}", "-I", Helper::SCHEMAS,
                                      "--conversations", scripts)
    report = out + err
    assert status.success?, report
    count = File.readlines(scripts).count { |l| !l.strip.empty? }
    cells = testees.empty? ? 1 : 4
    assert_includes out, "\n#{count * cells} passed, 0 failed", report
  end
end
