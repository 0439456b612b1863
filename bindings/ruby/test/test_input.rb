# frozen_string_literal: true

# The input table (docs/INPUT.md), row by row: every row id names one test, whose cases
# go through the four ways a value reaches the binding (the constructor, assignment to
# a field, a plain Hash where a struct is expected, from_h) and must be accepted alike
# (the same bytes, the same decoded value) or refused alike: the same exception class
# (the status), the same message (the core's words) and the same path. A refused value
# also prints as T(<invalid: MESSAGE>).
require_relative "helper"

class TestInput < Minitest::Test
  SCHEMA = <<~FBE
    package input
    enum Side : byte { buy; sell; }
    flags State : byte { unknown = 0x00; invalid = 0x01; initialized = 0x02; calculated = 0x04; broken = 0x08;
                         good = initialized | calculated; }
    struct Item { [key] int32 id; string name; }
    struct Special : Item { int32 extra; }
    struct Other { int32 z; }
    struct T {
      bool b; int32 i; uint8 u8; uint64 u64; char c; wchar wc; float f; double d; decimal dec; timestamp ts;
      uuid id; string s; bytes by; Side side; State st; int32? oi; Item? oit; int32[3] arr; int32[] vec;
      int32! set; string<int32> m; Item it; Item[] items;
    }
  FBE

  def self.schema
    @schema ||= FBE.load_string(SCHEMA, name: "input.fbe")
  end

  def schema
    self.class.schema
  end

  UTF8_ERROR = "string is not valid UTF-8: the byte 0xff, which UTF-8 never uses at byte 0 of 1"

  # id => [[field, given, decoded (or a block that checks it)], ...] accepted and
  # [[field, given, exception class, message, path (default: the field)], ...] refused.
  ROWS = {
    "bool" => {
      ok: [[:b, true, true], [:b, false, false]],
      bad: [[:b, 1, FBE::TypeMismatchError, "expected bool, got an integer"],
            [:b, "true", FBE::TypeMismatchError, "expected bool, got a string"]]
    },
    "int" => {
      ok: [[:i, -5, -5], [:i, 2**31 - 1, 2**31 - 1], [:u8, 255, 255], [:u64, 2**64 - 1, 2**64 - 1]],
      bad: [[:i, 1.0, FBE::TypeMismatchError, "expected int32, got a float"],
            [:i, "1", FBE::TypeMismatchError, "expected int32, got a string"],
            [:i, BigDecimal("1"), FBE::TypeMismatchError, "expected int32, got a decimal"],
            [:u8, 300, FBE::RangeError, "value 300 does not fit uint8"],
            [:u64, -1, FBE::RangeError, "value -1 does not fit uint64"],
            [:i, 2**70, FBE::RangeError, "value 1180591620717411303424 does not fit int32"]]
    },
    "char" => {
      ok: [[:c, "A", 65], [:c, 233, 233], [:c, "é", 233], [:wc, "ф", 1092], [:wc, "😀", 0x1F600],
           [:c, "é".encode("ISO-8859-1"), 233]],
      bad: [[:c, "ab", FBE::ArgumentError, "'ab' is not one character"],
            [:c, "", FBE::ArgumentError, "'' is not one character"],
            [:c, "ф", FBE::RangeError, "value 1092 does not fit char"],
            [:c, 256, FBE::RangeError, "value 256 does not fit char"],
            [:c, 1.0, FBE::TypeMismatchError, "expected char, got a float"]]
    },
    "float" => {
      ok: [[:f, 1.5, 1.5], [:f, 1, 1.0], [:d, 1e300, 1e300], [:d, -0.0, -0.0], [:d, Float::INFINITY, Float::INFINITY],
           [:d, Float::NAN, Float::NAN], [:d, 2**53 + 1, 2.0**53]],
      bad: [[:f, 1e300, FBE::RangeError, "value 1.0e+300 does not fit float"],
            [:d, "1.5", FBE::TypeMismatchError, "expected double, got a string"],
            [:d, BigDecimal("1.5"), FBE::TypeMismatchError, "expected double, got a decimal"]]
    },
    "decimal" => {
      ok: [[:dec, BigDecimal("-123.4500"), BigDecimal("-123.45")], [:dec, 7, BigDecimal(7)],
           [:dec, "123.45", BigDecimal("123.45")], [:dec, "1E-7", BigDecimal("1E-7")]],
      bad: [[:dec, 1.1, FBE::TypeMismatchError,
             "expected decimal, got a float (binary floats are not exact: pass a decimal or its text)"],
            [:dec, "abc", FBE::ArgumentError, "'abc' is not a decimal number"],
            [:dec, BigDecimal("NaN"), FBE::ArgumentError, "'NaN' is not a decimal number"],
            [:dec, "1e40", FBE::RangeError,
             "decimal 1e40 does not fit FBE's decimal (96-bit coefficient, scale 0..28)"],
            [:dec, BigDecimal("1e40"), FBE::RangeError,
             "decimal 0.1e41 does not fit FBE's decimal (96-bit coefficient, scale 0..28)"],
            [:dec, :x, FBE::TypeMismatchError, "expected decimal, got a Symbol"]]
    },
    "timestamp" => {
      ok: [[:ts, 1_543_145_597_933_000_000, 1_543_145_597_933_000_000], [:ts, Time.at(1, 500, :nsec), 1_000_000_500],
           [:ts, Time.utc(2018, 11, 25, 11, 33, 17.933r), 1_543_145_597_933_000_000]],
      bad: [[:ts, 1.5, FBE::TypeMismatchError, "expected timestamp, got a float (pass integer nanoseconds or a time)"],
            [:ts, -1, FBE::RangeError, "value -1 does not fit timestamp"],
            [:ts, 2**64, FBE::RangeError, "value 18446744073709551616 does not fit timestamp"],
            [:ts, Time.at(-1), FBE::RangeError, "value -1000000000 does not fit timestamp"],
            [:ts, "2018-11-25", FBE::TypeMismatchError, "expected timestamp, got a string"]]
    },
    "uuid" => {
      ok: [[:id, "123e4567-e89b-12d3-a456-426655440000", "123e4567-e89b-12d3-a456-426655440000"],
           [:id, "123E4567-E89B-12D3-A456-426655440000", "123e4567-e89b-12d3-a456-426655440000"]],
      bad: [[:id, "xyz", FBE::ArgumentError, "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)"],
            [:id, 5, FBE::TypeMismatchError, "expected uuid, got an integer"]]
    },
    "string" => {
      ok: [[:s, "EURUSD", "EURUSD"], [:s, "é".encode("ISO-8859-1"), "é"], [:s, "é".b, "é"]],
      bad: [[:s, 5, FBE::TypeMismatchError, "expected string, got an integer"],
            [:s, :sym, FBE::TypeMismatchError, "expected string, got a Symbol"],
            [:s, "\xFF".b, FBE::ArgumentError, UTF8_ERROR],
            [:s, "\xFF".dup.force_encoding("UTF-8"), FBE::ArgumentError, UTF8_ERROR]]
    },
    "bytes" => {
      ok: [[:by, "\x00\xFF".b, "\x00\xFF".b], [:by, "text", "text".b]], # Ruby: any String, its bytes
      bad: [[:by, 5, FBE::TypeMismatchError, "expected bytes, got an integer"],
            [:by, [1, 2], FBE::TypeMismatchError, "expected bytes, got a list"]]
    },
    "enum" => {
      ok: [[:side, 1, 1], [:side, :sell, 1], [:side, "sell", 1], [:side, 77, 77]],
      bad: [[:side, "sideways", FBE::ArgumentError, "'sideways' is not a value of input.Side"],
            [:side, :selll, FBE::ArgumentError, "'selll' is not a value of input.Side (did you mean 'sell'?)"],
            [:side, 256, FBE::RangeError, "value 256 does not fit byte"],
            [:side, 1.0, FBE::TypeMismatchError, "expected input.Side, got a float"]]
    },
    "flags" => {
      ok: [[:st, "initialized|calculated", 6], [:st, "good|64", 70], [:st, :good, 6], [:st, 6, 6], [:st, 0x0e, 14]],
      bad: [[:st, "bad", FBE::ArgumentError, "'bad' is not a value of input.State"],
            [:st, "good|nope", FBE::ArgumentError, "'nope' is not a value of input.State"],
            [:st, [2, 4], FBE::TypeMismatchError, "expected input.State, got a list"]]
    },
    "optional" => {
      ok: [[:oi, nil, nil], [:oi, 5, 5], [:oit, nil, nil], [:oit, { id: 3 }, ->(v) { v.id == 3 }]],
      bad: [[:oi, "x", FBE::TypeMismatchError, "expected int32 or null, got a string"],
            [:oi, 2**40, FBE::RangeError, "value 1099511627776 does not fit int32"],
            [:oit, 5, FBE::TypeMismatchError, "expected input.Item or null, got an integer"]]
    },
    "array" => {
      ok: [[:arr, [1, 2, 3], [1, 2, 3]]],
      bad: [[:arr, [1, 2], FBE::RangeError, "expected 3 elements for array[3] of int32, got 2"],
            [:arr, 5, FBE::TypeMismatchError, "expected array[3] of int32, got an integer"],
            [:arr, [1, "x", 3], FBE::TypeMismatchError, "expected int32, got a string", "arr[1]"]]
    },
    "sequence" => {
      ok: [[:vec, [], []], [:vec, [3, 1], [3, 1]], [:items, [{ id: 1 }, { id: 2, name: "b" }], ->(v) { v.map(&:id) == [1, 2] }]],
      bad: [[:vec, {}, FBE::TypeMismatchError, "expected vector of int32, got a map"],
            [:vec, Set[1], FBE::TypeMismatchError, "expected vector of int32, got a set"],
            [:items, [{ id: 1 }, { id: "2" }], FBE::TypeMismatchError, "expected int32, got a string", "items[1].id"]]
    },
    "set" => {
      ok: [[:set, Set[3, 1], Set[3, 1]], [:set, [1, 2], Set[1, 2]]],
      bad: [[:set, 5, FBE::TypeMismatchError, "expected set of int32, got an integer"],
            [:set, { 1 => 2 }, FBE::TypeMismatchError, "expected set of int32, got a map"]]
    },
    "map" => {
      ok: [[:m, { 1 => "a", 2 => "b" }, { 1 => "a", 2 => "b" }], [:m, [[2, "b"], [1, "a"]], { 2 => "b", 1 => "a" }]],
      bad: [[:m, 5, FBE::TypeMismatchError, "expected map of int32 to string, got an integer"],
            [:m, { 1 => "a", "k" => "b" }, FBE::TypeMismatchError, "expected int32, got a string", "m[1][key]"],
            [:m, { 1 => 2 }, FBE::TypeMismatchError, "expected string, got an integer", "m[0]"]]
    },
    "struct" => {
      ok: [[:it, { id: 1, name: "x" }, ->(v) { [v.id, v.name] == [1, "x"] }],
           [:it, { "id" => 2 }, ->(v) { [v.id, v.name] == [2, ""] }],
           [:it, :Item, ->(v) { v.id == 4 }], # an instance (made in `given`, below)
           [:it, :Special, ->(v) { [v.id, v.name] == [5, "derived"] }]], # a struct derived from Item
      bad: [[:it, :Other, FBE::TypeMismatchError, "expected input.Item, got a struct input.Other"],
            [:it, { id: 1, nme: "x" }, FBE::UnknownFieldError, "unknown field 'nme' of input.Item (did you mean 'name'?)"],
            [:it, 5, FBE::TypeMismatchError, "expected input.Item, got an integer"]]
    },
    "null" => {
      ok: [],
      bad: [[:i, nil, FBE::TypeMismatchError, "expected int32, got null"],
            [:s, nil, FBE::TypeMismatchError, "expected string, got null"],
            [:it, nil, FBE::TypeMismatchError, "expected input.Item, got null"],
            [:items, [nil], FBE::TypeMismatchError, "expected input.Item, got null", "items[0]"]]
    }
  }.freeze

  # A given value: struct instances are named by Symbol (made fresh for each use).
  def given(value)
    case value
    when :Item then schema::Item.new(id: 4)
    when :Special then schema::Special.new(id: 5, name: "derived", extra: 9)
    when :Other then schema::Other.new(z: 1)
    else value
    end
  end

  def same?(want, got)
    return want.call(got) if want.is_a?(Proc)
    return [want].pack("E") == [got].pack("E") if want.is_a?(Float)

    want == got && want.class == got.class
  end

  # The four ways: each gives the bytes of a T holding value in field, or raises.
  def ways(field, value)
    t = schema::T
    {
      "constructor" => -> { t.new(field => given(value)).encode },
      "assignment" => -> { t.new.tap { |v| v[field] = given(value) }.encode },
      "hash" => -> { schema.encode(t, { field => given(value) }) },
      "from_h" => -> { t.from_h({ field.to_s => given(value) }).encode }
    }
  end

  def check_accepted(field, value, want)
    bytes = ways(field, value).map do |way, make|
      data = make.call
      got = schema::T.decode(data)[field]
      assert same?(want, got), "#{field}=#{value.inspect} (#{way}): got #{got.inspect}"
      data
    end
    assert_equal 1, bytes.uniq.size, "#{field}=#{value.inspect}: the ways give different bytes"
  end

  def check_refused(field, value, cls, message, path = field.to_s)
    ways(field, value).each do |way, make|
      e = assert_raises(FBE::Error, "#{field}=#{value.inspect} (#{way})") { make.call }
      assert_equal [cls, message, path], [e.class, e.reason, e.path], "#{field}=#{value.inspect} (#{way})"
      assert_equal "#{message} at '#{path}'", e.message
    end
    # repr never raises: a value holding it prints the core's error
    printed = schema::T.new(field => given(value)).inspect
    assert_equal "T(<invalid: #{message} at '#{path}'>)", printed
  end

  ROWS.each do |id, row|
    define_method("test_row_#{id}") do
      row[:ok].each { |field, value, want| check_accepted(field, value, want) }
      row[:bad].each { |field, value, cls, message, path| check_refused(field, value, cls, message, *path) }
    end
  end

  def test_every_row_of_the_table
    ids = File.read(File.join(Helper::REPO, "docs", "INPUT.md")).scan(/^\| `([a-z]+)` \|/).flatten
    assert_equal ids, ROWS.keys
  end

  # Unknown names are refused where they are given: the constructor's keywords at once,
  # assignment by name, the Hash at encode (and from_h), a JSON object unless told.
  def test_unknown_fields
    t = schema::Item
    message = "unknown field 'nme' of input.Item (did you mean 'name'?)"
    [-> { t.new(nme: "x") }, -> { t.new[:nme] = "x" }, -> { t.new["nme"] }, -> { schema.encode(t, { nme: "x" }) },
     -> { t.from_h({ "nme" => "x" }) }, -> { t.from_json('{"id":1,"nme":"x"}') }].each do |make|
      e = assert_raises(FBE::UnknownFieldError) { make.call }
      assert_equal message, e.reason
      assert_kind_of FBE::NotFoundError, e
    end
    assert_equal 1, t.from_json('{"id":1,"nme":"x"}', ignore_unknown: true).id
    assert_equal "unknown field 'zzzz' of input.Item", assert_raises(FBE::UnknownFieldError) { t.new(zzzz: 1) }.reason
  end

  # Enum and flags modules read and print values through the core too.
  def test_enum_text_and_parse
    st = schema::State
    assert_equal ["initialized|calculated|good", "initialized|calculated|good|64", "unknown", "64"],
                 [st.text(6), st.text(70), st.text(0), st.text(64)]
    assert_equal ["sell", "77"], [schema::Side.text(1), schema::Side.text(77)]
    assert_equal [6, 70, 6], [st.parse("initialized|calculated"), st.parse("good|64"), st.parse(:good)]
    e = assert_raises(FBE::ArgumentError) { schema::Side.parse("sideways") }
    assert_equal "'sideways' is not a value of input.Side", e.reason
    assert_raises(FBE::RangeError) { schema::Side.text(256) }
  end

  # A collection stores most elements without the per-element dispatch (encode.c's
  # fast_items: Fixnums in range, Floats for double); each element must still be taken
  # or refused exactly as the same value in a field of the element type, with the
  # element's index in the path.
  ELEMENTS = <<~FBE
    package elements
    enum Side : byte { buy; sell; }
    flags Bits : int8 { a = 1; sign = -128; }
    struct One { int8 i8; uint8 u8; int16 i16; uint32 u32; int64 i64; uint64 u64; char c; wchar wc; timestamp ts;
                 double d; float f; Side side; Bits bits; bool b; }
    struct Many { int8[] i8; uint8[] u8; int16[] i16; uint32[] u32; int64[] i64; uint64[] u64; char[] c; wchar[] wc;
                  timestamp[] ts; double[] d; float[] f; Side[] side; Bits[] bits; bool[] b; }
  FBE

  def test_collection_elements_as_fields
    s = FBE.load_string(ELEMENTS)
    edge = [0, 1, -1, 127, 128, -128, -129, 255, 256, 32_767, -32_768, 65_536, 2**31, 2**32, 2**62 - 1, -2**62, 2**62,
            2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 1.5, 2.0, -0.0, Float::NAN, 1e300, "a", "ж", :sell,
            "sign|a", Time.at(1, 5, :nsec), nil, true, BigDecimal("1"), [1]]
    s::One.fields.each do |name|
      edge.each do |value|
        single = begin
          s.encode(:One, { name => value })
          nil
        rescue FBE::Error => e
          e
        end
        many = [value, value]
        if single
          e = assert_raises(FBE::Error, "#{name} #{value.inspect}") { s.encode(:Many, { name => many }) }
          assert_equal [single.class, single.reason, "#{name}[0]"], [e.class, e.reason, e.path],
                       "#{name} #{value.inspect}"
        else
          got = s::Many.decode(s.encode(:Many, { name => many }))[name]
          want = s::One.decode(s.encode(:One, { name => value }))[name]
          assert_equal [want, want].map(&:inspect), got.first(2).map(&:inspect), "#{name} #{value.inspect}"
        end
      end
    end
  end
end
