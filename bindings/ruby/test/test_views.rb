# frozen_string_literal: true

# Views (Account.view(data), issue 21): a struct's value read in place from its verified
# bytes. Every conformance vector through a view gives decode's JSON, text and value, and
# every field read through the readers equals the decoded field; bytes decode refuses are
# refused with decode's error; nested structs, optionals, collections and maps read on
# access; the view keeps its bytes and schema alive (GC, compaction, the caller changing
# the String) and refuses to read a closed schema; the testee answers "view": true
# exactly as without it.
require "open3"
require_relative "helper"

class TestViews < Minitest::Test
  include Helper
  VECTORS = Helper.records("vectors.jsonl").select { |r| %w[standard final].include?(r["format"]) }
  MALFORMED = Helper.records("malformed.jsonl") + Helper.records("malformed-extra.jsonl")
  VERSIONING = Helper.records("versioning.jsonl")

  # A value read through a view or decoded (ordered: true), as plain comparable data:
  # views through their readers (by index, so reserved names too), list views element by
  # element (and each must give the same), floats by bit pattern, strings with their
  # encoding.
  def plain(x)
    case x
    when FBE::View then [:struct, FBE.type_of(x).value_class.fbe_name,
                         (0...FBE.type_of(x).value_class.fields.size).map { |i| plain(x[i]) }]
    when FBE::Message then [:struct, FBE.type_of(x).fbe_name, (0...FBE.type_of(x).fields.size).map { |i| plain(x[i]) }]
    when FBE::ListView
      by_index = (0...x.size).map { |i| plain(x[i]) }
      assert_equal by_index, x.map { |e| plain(e) }
      by_index
    when FBE::MapView, Array then x.map { |e| plain(e) }
    when Float then [:float, [x].pack("G")]
    when String then [x.encoding.name, x]
    else x
    end
  end

  def model_of(rec)
    rec["format"] == "final" ? :final : :standard
  end

  VECTORS.each do |rec|
    define_method("test_vector_#{rec['id']}") do
      cls = Helper.schema(rec["schema"])[rec["type"]]
      data = Helper.bytes(rec["hex"])
      final = rec["format"] == "final"
      view = cls.view(data, model: model_of(rec))
      decoded = cls.decode(data, final: final)
      assert_kind_of cls::View, view
      assert_equal decoded.to_json, view.to_json
      assert_equal decoded.to_json(pretty: true), view.to_json(pretty: true)
      assert_equal decoded.to_s, view.to_s
      assert_equal decoded.inspect, view.inspect
      assert cls.same_value?(decoded, view.to_value)
      assert_equal plain(cls.decode(data, final: final, ordered: true)), plain(view.to_value(ordered: true))
      assert_equal view, decoded
      assert_equal decoded, view
      assert_equal view, cls.view(data, model: model_of(rec)) # view == view
      # every field through the readers: what decode gives, nested parts as views
      assert_equal plain(cls.decode(data, final: final, ordered: true)), plain(view)
      cls.fields.each_with_index do |name, i|
        next if FBE::Schema::VIEW_RESERVED.include?(name)

        assert_equal [plain(view[i])], [plain(view.public_send(name))], name
      end
    end
  end

  MALFORMED.each do |rec|
    define_method("test_refused_#{rec['id']}") do
      cls = Helper.schema(rec["schema"])[rec["type"]]
      data = Helper.bytes(rec["hex"])
      refused = assert_raises(FBE::Error) { cls.decode(data, final: rec["format"] == "final") }
      e = assert_raises(FBE::Error) { cls.view(data, model: model_of(rec)) }
      assert_same refused.class, e.class
      assert_equal refused.message, e.message
      assert_equal [refused.path, refused.offset], [e.path, e.offset]
    end
  end

  VERSIONING.each do |rec|
    define_method("test_versioning_#{rec['id']}") do
      cls = Helper.schema(rec["reader_schema"])["#{rec['reader_schema']}.#{rec['reader_type']}"]
      data = Helper.bytes(rec["hex"])
      decoded = begin
        cls.decode(data)
      rescue FBE::Error => e
        e
      end
      if decoded.is_a?(FBE::Error)
        viewed = assert_raises(FBE::Error) { cls.view(data) }
        assert_equal decoded.message, viewed.message
      else
        view = cls.view(data)
        assert_equal decoded.to_json, view.to_json
        assert_equal plain(cls.decode(data, ordered: true)), plain(view)
      end
    end
  end

  TEXT = <<~FBE
    package views
    enum Side : byte { buy; sell; }
    flags Bits : int8 { a = 1; sign = -128; }
    struct Leg { int64 id; string name = "leg"; double px; }
    struct Book {
      int32 id;
      Leg main;
      Leg? hedge;
      Leg[] legs;
      int32[3] fixed;
      string! tags;
      int32{string} counts;
      Leg{int32} by_id;
      Leg{Leg} pairs;
      bytes blob;
      decimal amount;
      uuid key;
      Side side;
      Bits bits;
      timestamp at;
      string? note;
      wchar ch;
      int32 class;
      int32 to_value;
      int32 hash;
    }
  FBE

  def views
    @views ||= FBE.load_string(TEXT)
  end

  def book
    s = views
    s::Book.new(id: 7, main: s::Leg.new(id: 1, name: "m", px: 1.5), hedge: nil,
                legs: [s::Leg.new(id: 2), s::Leg.new(id: 3, name: "ж", px: -0.0)],
                fixed: [1, -2, 3], tags: Set["b", "a"], counts: { "x" => 1, "y" => -1 },
                by_id: { 5 => s::Leg.new(id: 5) }, pairs: { s::Leg.new(id: 8) => s::Leg.new(id: 9) },
                blob: "\xff\x00".b, amount: "1.50", key: "123e4567-e89b-12d3-a456-426655440000",
                side: :sell, bits: -127, at: 1_543_145_597_933_000_000, note: "n", ch: "ж",
                class: 1, to_value: 2, hash: 3)
  end

  def each_model(value)
    [:standard, :final].each { |m| yield FBE.type_of(value).view(value.encode(final: m == :final), model: m), m }
  end

  def test_nested_optional_and_scalars
    each_model(book) do |v, m|
      s = views
      assert_kind_of s::Leg::View, v.main, m
      assert_equal ["m", 1.5], [v.main.name, v.main.px], m
      assert_nil v.hedge, m
      assert_equal "n", v.note
      assert_equal Encoding::UTF_8, v.note.encoding
      assert_equal ["\xff\x00".b, Encoding::BINARY], [v.blob, v.blob.encoding]
      assert_equal BigDecimal("1.5"), v.amount
      # the decimal read remembers its scale (1.50) as a decoded one does: same bytes again
      assert_equal book.encode, s::Book.new(**book.to_h, amount: v.amount).encode
      assert_equal book.encode(final: m == :final), v.to_value.encode(final: m == :final)
      assert_equal "123e4567-e89b-12d3-a456-426655440000", v.key
      assert_equal [s::Side[:sell], -127, 1_543_145_597_933_000_000, "ж".ord], [v.side, v.bits, v.at, v.ch]
      refute_includes s::Book::View.instance_methods(false), :class
      assert_equal [s::Book::View, 1, 2, 3], [v.class, v[:class], v["to_value"], v[:hash]], m
      assert_equal book, v.to_value # to_value is no field reader: it is reserved
      e = assert_raises(FBE::UnknownFieldError) { v[:clas] }
      assert_includes e.message, "did you mean 'class'?"
      assert_raises(IndexError) { v[99] }
      assert_equal v.id, v[0]
      assert_equal v[:hash], v[-1]
    end
  end

  def test_collections
    each_model(book) do |v, m|
      legs = v.legs
      assert_kind_of FBE::ListView, legs
      assert_equal [2, 2, 2], [legs.size, legs.length, legs.count], m
      assert_equal [2, 3], legs.map(&:id)
      assert_equal ["leg", "ж"], legs.to_a.map(&:name)
      assert_equal 3, legs[-1].id
      assert_nil legs[2]
      assert_nil legs[-3]
      assert_equal [1, -2, 3], v.fixed.to_a
      assert_equal %w[b a], v.tags.to_a # a set as written; to_value gives decode's Set
      assert_equal Set["a", "b"], v.tags.to_value
      assert_equal %w[b a], v.tags.to_value(ordered: true)
      assert_equal book.legs, legs.to_value
      assert_equal legs, book.legs # a collection view == what encode takes for it
      refute_equal legs, [book.legs[0]]
      refute_equal legs, "not a list"
      counts = v.counts
      assert_kind_of FBE::MapView, counts
      assert_equal [["x", 1], ["y", -1]], counts.to_a
      assert_equal [%w[x y], [1, -1]], [counts.keys, counts.values]
      assert_equal [1, -1, nil], [counts["x"], counts["y"], counts["z"]]
      assert counts.key?("x")
      refute counts.key?("z")
      assert_equal({ "x" => 1, "y" => -1 }, counts.to_value)
      assert_equal({ "x" => 1, "y" => -1 }, counts.each_pair.to_h)
      assert_equal counts, { "y" => -1, "x" => 1 }.to_a.reverse
      assert_equal 5, v.by_id[5].id
      key, value = v.pairs.first
      assert_equal [8, 9], [key.id, value.id]
      assert_equal 9, v.pairs[views::Leg.new(id: 8)].id # a struct key: the core's equality
      assert_equal "[2][Leg(id=2,name=\"leg\",px=0.0),Leg(id=3,name=\"ж\",px=-0.0)]", legs.to_s
      assert_equal book.to_json[/"legs":(\[.*?\]),"fixed"/, 1], legs.to_json
      assert_equal legs.each.size, 2 # a sized Enumerator
    end
  end

  # A map written with a key twice (the ordered form): the view reads the entries as
  # written, [] finds the last, as decode keeps it.
  def test_map_with_a_key_twice
    s = views
    data = s.encode(:Book, { counts: [["x", 1], ["x", 2]] })
    assert_equal 1, s::Book.decode(data).counts.size
    v = s::Book.view(data)
    assert_equal 2, v.counts["x"]
    assert_equal({ "x" => 2 }, v.to_value.counts)
    assert_equal s::Book.decode(data).to_json, v.to_json
  end

  def test_model_and_input_errors
    data = book.encode
    assert_raises(FBE::ArgumentError) { views::Book.view(data, model: :fast) }
    assert_equal 7, views::Book.view(data, model: "standard").id
    assert_equal 7, views.view(:Book, data).id
    assert_equal 7, views.view("views.Book", book.encode(final: true), model: :final).id
    e = assert_raises(FBE::TypeMismatchError) { views::Book.view(data.bytes) }
    assert_includes e.message, "expected a String (bytes), got Array"
    assert_raises(FBE::MalformedError) { views::Book.view(book.encode(final: true)) } # the other model
    limited = assert_raises(FBE::LimitError) { views::Book.view(data, limits: { max_model_size: 16 }) }
    assert_equal assert_raises(FBE::LimitError) { views::Book.decode(data, limits: { max_model_size: 16 }) }.message,
                 limited.message
    assert_raises(TypeError) { FBE::View.new } # views come from view() and from reading only
    assert_raises(TypeError) { views::Book::View.allocate }
  end

  # The view holds a frozen snapshot: the caller's String may change, shrink or go.
  def test_the_caller_changing_the_bytes
    [false, true].each do |final|
      data = +book.encode(final: final)
      data.force_encoding(Encoding::UTF_8) # any encoding: bytes are bytes
      v = views::Book.view(data, model: final ? :final : :standard)
      want = v.to_json
      data.replace("\x00".b * data.bytesize)
      assert_equal 7, v.id
      data.clear
      assert_equal want, v.to_json
      assert_equal "ж", v.legs[1].name
      frozen = book.encode(final: final).freeze
      assert_equal 7, views::Book.view(frozen, model: final ? :final : :standard).id
    end
  end

  # Views keep their bytes and schema alive and in place: full GCs and compaction between
  # the open and the reads, the only reference to the bytes in the view, GC.stress.
  def test_gc_and_compaction
    s = FBE.load_string(TEXT.sub("package views", "package viewsgc"))
    tiny = s.view(:Leg, s.encode(:Leg, { id: 9, name: "" })) # an embedded String: compaction would move it
    big = s.view(:Book, s.encode(:Book, { id: 7, legs: (0...300).map { |i| { id: i, name: "n#{i}" } } }))
    legs = big.legs
    s = nil
    GC.start(full_mark: true, immediate_sweep: true)
    GC.verify_compaction_references(double_heap: true, toward: :empty) if GC.respond_to?(:verify_compaction_references)
    GC.start
    assert_equal 9, tiny.id
    assert_equal "", tiny.name
    assert_equal (0...300).to_a, legs.map(&:id)
    assert_equal "n299", big.legs[299].name
    GC.stress = true
    begin
      assert_equal 7, big.id
      assert_equal "n3", legs[3].name
      assert_equal 300, big.to_value.legs.size
      assert_includes big.to_s, "name=\"n1\""
    ensure
      GC.stress = false
    end
  end

  def test_closed_schema
    s = FBE.load_string(TEXT.sub("package views", "package viewsclosed"))
    v = s.view(:Book, s.encode(:Book, { id: 7, legs: [{ id: 1 }] }))
    legs = v.legs
    assert_equal 7, v.id
    s.close
    %i[id legs to_value to_s to_json].each do |m|
      e = assert_raises(FBE::ArgumentError) { v.public_send(m) }
      assert_includes e.message, "closed"
    end
    assert_raises(FBE::ArgumentError) { legs[0] }
    assert_raises(FBE::ArgumentError) { legs.each { nil } }
  end

  # A block that closes the schema mid-way: the next element is refused, nothing is read.
  def test_close_inside_each
    s = FBE.load_string(TEXT.sub("package views", "package viewseach"))
    legs = s.view(:Book, s.encode(:Book, { legs: [{ id: 1 }, { id: 2 }] })).legs
    seen = []
    e = assert_raises(FBE::ArgumentError) do
      legs.each do |leg|
        seen << leg.id
        s.close
      end
    end
    assert_includes e.message, "closed"
    assert_equal [1], seen
  end

  # A key's == that closes the schema during a map lookup: the next key is refused.
  def test_close_inside_a_map_lookup
    s = FBE.load_string(TEXT.sub("package views", "package viewsmap"))
    counts = s.view(:Book, s.encode(:Book, { counts: { "x" => 1, "y" => 2 } })).counts
    key = Object.new
    key.define_singleton_method(:to_str) { "z" } # String#== asks such an object's ==
    key.define_singleton_method(:==) do |_other|
      s.close
      false
    end
    e = assert_raises(FBE::ArgumentError) { counts[key] }
    assert_includes e.message, "closed"
  end

  # More than 64 KiB: verified without the GVL, read the same.
  def test_large_bytes
    s = views
    value = s::Book.new(id: 1, legs: (0...5000).map { |i| s::Leg.new(id: i, name: "x" * 20) })
    data = value.encode
    assert_operator data.bytesize, :>, 64 * 1024
    v = s::Book.view(data)
    assert_equal [5000, 4999], [v.legs.size, v.legs[-1].id]
    assert_equal value, v
  end

  # The testee answers decode and text with "view": true exactly as without (docs/TESTEE.md).
  def test_testee_view_requests
    testee = [RbConfig.ruby, *$LOAD_PATH.flat_map { |d| ["-I", d] }, File.expand_path("../bin/fbe-testee", __dir__)]
    reqs = [{ op: "load", include: [Helper::SCHEMAS] }]
    records = VECTORS + MALFORMED
    records.each do |r|
      %w[decode text].each do |op|
        base = { op: op, package: r["schema"], type: r["type"].split(".").last, model: r["format"], hex: r["hex"] }
        reqs << base << base.merge(view: true)
      end
    end
    out, err, status = Open3.capture3(*testee, stdin_data: reqs.map { |q| JSON.generate(q) }.join("\n") + "\n")
    assert status.success?, err
    answers = out.lines(chomp: true)
    assert_equal reqs.size, answers.size, err
    assert_equal '{"ok":true}', answers[0]
    answers.drop(1).each_slice(2).with_index do |(plain, viewed), i|
      assert_equal plain, viewed, "record #{records[i / 2]['id']}"
    end
    assert answers.drop(1).count { |a| a.start_with?('{"ok":true') } >= VECTORS.size * 4
  end
end
