# frozen_string_literal: true

# Schema names never break the binding (README "Names"): fields and enum members named
# like the binding's API, Ruby's core methods, keywords and constants load, encode,
# decode and go through JSON; every field is reachable by name; a reserved name keeps no
# accessor, so the object stays whole; enum values no member has and flags over a signed
# base keep their values and bit patterns.
require "set"
require_relative "helper"

class TestNames < Minitest::Test
  # Named like Object's methods and Ruby's hooks: no accessor.
  RESERVED = %w[class initialize send object_id hash __send__ __id__ to_s inspect freeze dup clone method
                methods instance_variables then tap display itself to_json to_h to_a members
                instance_variable_get method_missing initialize_copy].freeze
  # Named like the binding's API, Struct's and Enumerable's methods, keywords: accessors.
  API = %w[encode decode verify from_json same_value fields keys type_id schema fbe_name count size length
           values each select map first new allocate def end self nil begin BEGIN __init__ __class__ _x
           toJsonString constructor prototype equals respond_to_missing Upper].freeze
  MEMBERS = %w[mro _missing_ __init__ class new name names values send fbe_name A a Good GOOD _x initialize
               inspect].freeze

  SCHEMA = <<~FBE
    package names

    enum E : int16 { #{MEMBERS.map { |m| "#{m};" }.join(' ')} }
    enum Empty { }
    flags K : int8 { a = 1; b = 2; send = 4; sign = -128; all = -1; }

    struct S {
        [key] int32 key;
        #{(RESERVED + API).map { |n| "int32 #{n};" }.join(' ')}
        E e; E? oe; Empty empty; K k; K[] ks; int32<K> by_flag; K! flag_set;
    }

    message M : S {
        string payload;
    }
  FBE

  ALL_FIELDS = (%w[key] + RESERVED + API + %w[e oe empty k ks by_flag flag_set]).map(&:to_sym).freeze

  def names
    @names ||= FBE.load_string(SCHEMA, name: "names.fbe")
  end

  def full_value
    fields = { key: 7 }.merge((RESERVED + API).each_with_index.to_h { |n, i| [n.to_sym, i + 1] })
    fields.merge(e: names["E"][:initialize], oe: 12_345, empty: 5, k: -2, ks: [-128, -2, 126, 0],
                 by_flag: { -2 => 1, 126 => 2 }, flag_set: Set[-1, 127])
  end

  def test_the_schema_loads_with_every_name
    assert_equal ALL_FIELDS, names["S"].fields
    assert_equal ALL_FIELDS + [:payload], names["M"].fields
    assert_equal MEMBERS, names["E"].names
    assert_same names["S"], names["M"].base
  end

  def test_every_field_by_name_keyword_and_to_h
    s = names["S"]
    fields = full_value
    v = s.new(**fields)
    fields.each do |n, want|
      assert_equal want, v[n], n
      assert_equal want, v[n.to_s], n
    end
    assert_equal ALL_FIELDS, fields.keys # every field given
    assert_equal fields, v.to_h
    # reserved names keep no accessor: the object is whole
    assert_same s, v.class
    assert_same s, FBE.type_of(v)
    assert_kind_of Integer, v.object_id
    assert_kind_of Integer, v.hash
    assert_equal v.hash, s.new(key: 7).hash # the [key] field: key
    assert_equal 0, v <=> s.new(key: 7)
    refute_equal v, s.new(key: 7) # == is deep
    assert_equal v, s.new(**fields)
    assert v.eql?(s.new(**fields))
    assert_includes Set[s.new(**fields)], v
    assert_equal 1, { v => 1 }[s.new(**fields)]
    assert_equal fields[:encode], v.send(:encode) # send is Object#send
    assert_equal fields[:initialize], v.public_send(:[], :initialize)
    assert_match(/\AS\(key=7,class=1,initialize=2,/, v.inspect)
    assert_equal v.inspect, v.to_s
    assert_equal 1, v.dup[:class]
    assert_equal v.to_h, v.clone.to_h
    refute v.frozen?
    assert_equal v, v.then { |x| x }
    # names like the API, Struct's or Enumerable's methods: the field's accessor wins
    assert_equal fields[:encode], v.encode
    assert_equal fields[:count], v.count
    assert_equal fields[:values], v.values
    assert_equal fields[:nil], v.nil
    assert_equal fields[:Upper], v.Upper
    v.size = 99
    v[:class] = 98
    v["initialize"] = 97
    assert_equal [99, 98, 97], [v[:size], v[:class], v[:initialize]]
    assert_raises(FBE::UnknownFieldError) { s.new(nope: 1) }
    assert_raises(FBE::UnknownFieldError) { v[:nope] }
    refute_respond_to v, :class=
    refute_respond_to v, :send=
  end

  def test_schema_operations_with_every_name
    s = names["S"]
    fields = full_value
    v = s.new(**fields)
    [false, true].each do |final|
      data = names.encode(s, v, final: final)
      assert_equal data, names.encode(:S, fields, final: final) # a plain Hash: the same bytes
      assert_equal data, names.encode(:S, fields.transform_keys(&:to_s), final: final)
      assert names.verify(s, data, final: final)
      assert_equal data.bytesize, names.verify!(s, data, final: final)
      back = names.decode(s, data, final: final)
      assert_equal fields, back.to_h
      assert_same s, FBE.type_of(back)
      assert_equal data, names.encode(s, back, final: final)
      assert_equal data, names.encode(s, names.decode(s, data, final: final, ordered: true), final: final)
    end
    text = names.to_json(s, v)
    ALL_FIELDS.each { |n| assert_includes text, %("#{n}":) }
    assert_equal fields, names.from_json(s, text).to_h
    assert_equal text, names.to_json(s, names.from_json(s, text, ordered: true))
    assert_equal JSON.parse(text), JSON.parse(JSON.generate([v]))[0] # JSON embeds a value as its text
    # a message, through the protocol
    m = names["M"]
    msg = m.new(**fields, payload: "p")
    out = String.new
    names.sender(out).send_message(msg)
    got = []
    names.receiver { |x| got << x }.feed(out)
    assert_equal [m], got.map { |x| FBE.type_of(x) }
    assert_equal msg.to_h, got[0].to_h
  end

  def test_another_load_encodes_by_name
    again = FBE.load_string(SCHEMA, name: "names.fbe")
    v = names["S"].new(**full_value)
    assert_equal names.encode(:S, v), again.encode(:S, v)
    assert_equal v.to_h, again.decode(:S, names.encode(:S, v)).to_h
  end

  def test_enum_members_by_any_name
    e = names["E"]
    MEMBERS.each_with_index do |n, i|
      assert_equal i, e[n], n
      assert_equal i, e[n.to_sym], n
      assert_equal n, e.name_of(i)
    end
    # constants for the names that upcase to a constant name no other member's shares
    assert_equal %i[MRO NEW NAME NAMES VALUES SEND FBE_NAME INITIALIZE INSPECT CLASS].sort, e.constants.sort
    assert_equal MEMBERS.index("mro"), e::MRO
    assert_equal MEMBERS.index("inspect"), e::INSPECT
    assert_equal MEMBERS.index("name"), e["NAME"] # any case where unambiguous
    assert_equal MEMBERS.index("Good"), e["Good"]
    assert_nil e["good"] # Good or GOOD: ambiguous
    # the module's own methods stay
    assert_equal "names.E", e.fbe_name
    refute e.flags?
    assert_equal MEMBERS.map(&:to_sym), e.values.keys
    assert_equal "#<FBE enum names.E>", e.inspect
  end

  def test_enum_values_no_member_has
    s = names["S"]
    v = s.new(oe: -5, empty: -7, e: 32_767)
    back = names.decode(s, names.encode(s, v))
    assert_equal [-5, -7, 32_767], [back.oe, back.empty, back.e]
    assert_equal names.encode(s, v), names.encode(s, back)
    assert_nil names["E"].name_of(12_345)
    assert_empty names["Empty"].names
    assert_raises(FBE::RangeError) { names.encode(s, { e: 32_768 }) }
  end

  def test_signed_flags_keep_their_bit_pattern
    s = names["S"]
    k = names["K"]
    assert_equal [-1, -128, 4], [k[:all], k::SIGN, k::SEND]
    minus_two, zero = [-2, 0].map { |x| names.encode(s, { ks: [x] }, final: true) }
    assert_equal [[0xFE, 0]], minus_two.bytes.zip(zero.bytes).reject { |x, y| x == y }
    assert_includes names.to_json(s, { k: -2 }), '"k":-2'
    # map keys and set elements differing in the sign bit only stay apart
    v = s.new(by_flag: { -2 => 1, 126 => 2, -128 => 3, 0 => 4 }, flag_set: Set[-1, 127, -128, 0])
    [false, true].each do |final|
      back = names.decode(s, names.encode(s, v, final: final), final: final)
      assert_equal({ -2 => 1, 126 => 2, -128 => 3, 0 => 4 }, back.by_flag)
      assert_equal Set[-1, 127, -128, 0], back.flag_set
    end
    assert_equal %w[b send sign], k.names_of(-122)
  end
end
