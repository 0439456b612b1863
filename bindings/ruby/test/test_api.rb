# frozen_string_literal: true

# The public API: loading, the generated classes and modules, construction and
# defaults, the type mapping, equality, JSON, plain Hashes, Sender/Receiver, threads.
require "pathname"
require "pp"
require "stringio"
require "time"
require_relative "helper"

class TestAPI < Minitest::Test
  include Helper

  def test_load_forms
    a = FBE.load(File.join(Helper::SCHEMAS, "proto.fbe"))
    b = FBE.load(Pathname(Helper::SCHEMAS) / "proto.fbe", include: [Pathname(Helper::SCHEMAS)])
    c = FBE.load_package("proto", include: Helper::SCHEMAS)
    d = FBE.load_string(File.read(File.join(Helper::SCHEMAS, "proto.fbe")), name: "proto.fbe")
    [a, b, c, d].each do |s|
      assert_kind_of Module, s
      assert_equal "proto", s.name
      assert_equal ["proto"], s.packages
      assert_same s::Account, s["Account"]
      assert_same s::Account, s[:Account]
      assert_same s::Account, s["proto.Account"]
      assert s.key?(:Order)
      refute s.key?(:Nope)
    end
    refute_same a::Account, b::Account # every load makes its own classes
    assert_equal a::Account.decode(readme_account(b).encode), readme_account(a)
    assert_match(/FBE::Schema proto \(\d+ types in proto\)/, a.inspect)
    assert_equal %w[proto.Account proto.AccountMessage proto.Balance proto.BalanceMessage proto.Order
                    proto.OrderMessage proto.OrderSide proto.OrderType proto.State], a.types.keys.sort
  end

  def test_imports_and_packages
    s = Helper.schema("protoex")
    assert_equal %w[proto protoex], s.packages
    assert_same s["proto.Balance"], s::Proto::Balance
    assert_same s["protoex.Balance"], s::Balance
    assert_same s::Proto::Order, s.package("proto")::Order
    assert_equal s::Proto::Balance, s::Balance.base
    assert_equal %i[currency amount locked], s::Balance.fields # inherited fields first
    t = schema_test
    assert_same t::Proto::Account, t.types["proto.Account"]
    assert_raises(FBE::NotFoundError) { s.package("nope") }
  end

  def test_class_metadata
    acc = proto::Account
    assert_equal "proto.Account", acc.fbe_name
    assert_equal %i[id name state wallet asset orders], acc.fields
    assert_equal %i[id], acc.keys
    assert_equal 3, acc.type_id
    refute acc.message?
    assert proto::AccountMessage.message?
    assert_same proto, acc.schema
    assert acc < Struct
    assert acc.include?(FBE::Message)
    assert_equal "#<FBE struct proto.Account>", acc.inspect
    empty = schema_test::StructEmpty
    assert_equal [], empty.fields
    assert_equal "StructEmpty()", empty.new.inspect
    assert_equal empty.new, empty.decode(empty.new.encode)
  end

  def test_defaults
    t0 = Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond)
    v = schema_test::StructSimple.new
    t1 = Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond)
    assert_equal [0, false, true, 0, 255, 0, 33, 0, 0x444], [v.id, v.f1, v.f2, v.f3, v.f4, v.f5, v.f6, v.f7, v.f8]
    assert_equal [127, 0, 255, 32_767, 65_535, 2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1],
                 [v.f10, v.f11, v.f12, v.f14, v.f16, v.f18, v.f20, v.f22, v.f24]
    assert_equal [123.456].pack("e").unpack1("e"), v.f26
    assert_equal(-123.456e+123, v.f28)
    assert_equal BigDecimal("0"), v.f29
    assert_equal BigDecimal("123456.123456"), v.f30
    assert_equal ["", "Initial string!"], [v.f31, v.f32]
    assert_equal Encoding::UTF_8, v.f32.encoding
    assert_equal 0, v.f34
    assert_operator t0, :<=, v.f35 # utc: now, in ns (the same clock, read before and after)
    assert_operator v.f35, :<=, t1
    assert_equal "00000000-0000-0000-0000-000000000000", v.f36
    assert_match(/\A\h{8}-\h{4}-1\h{3}-\h{4}-\h{12}\z/, v.f37) # uuid1
    assert_equal "123e4567-e89b-12d3-a456-426655440000", v.f38
    assert_equal "proto.Order", v.f41.class.fbe_name
    assert_equal 0x02 | 0x01 | 0x08, v.f44.state # State.initialized | State.bad
    # fresh values: nothing mutable is shared between instances
    w = schema_test::StructSimple.new
    v.f32 << "x"
    v.f44.orders << proto::Order.new
    assert_equal "Initial string!", w.f32
    assert_empty w.f44.orders
    refute_equal v.f37, w.f37
    o = schema_test::StructOptional.new
    assert_nil o.f100
    assert_equal true, o.f101
  end

  def test_construction
    o = proto::Order.new(1, "EURUSD", price: 1.5)
    assert_equal [1, "EURUSD", 0, 0, 1.5, 0.0], o.to_a
    assert_equal({ id: 1, symbol: "EURUSD", side: 0, type: 0, price: 1.5, volume: 0.0 }, o.to_h)
    o.volume = 2.0
    assert_equal 2.0, proto::Order.decode(o.encode).volume
    e = assert_raises(FBE::UnknownFieldError) { proto::Order.new(nope: 1) }
    assert_equal "unknown field 'nope' of proto.Order", e.message
    e = assert_raises(FBE::UnknownFieldError) { proto::Order.new(symbl: "EURUSD") }
    assert_equal "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)", e.message
    assert_raises(::ArgumentError) { proto::Order.new(1, 2, 3, 4, 5, 6, 7) }
    assert_raises(::ArgumentError) { proto::Order.new(1, id: 2) }
  end

  def test_readme_account
    acc = readme_account
    %w[standard final].each do |model|
      rec = record("pub-proto-Account-readme-#{model}")
      data = acc.encode(final: model == "final")
      assert_equal Helper.bytes(rec["hex"]), data
      assert_equal Encoding::BINARY, data.encoding
      back = proto::Account.decode(data, final: model == "final")
      assert proto::Account.same_value?(acc, back)
      assert_equal data.bytesize, proto::Account.verify!(data, final: model == "final")
    end
    assert_equal 'Account(id=1,name="Test",state=initialized|calculated|good,wallet=Balance(currency="USD",amount=1000.0),' \
                 'asset=Balance(currency="EUR",amount=100.0),orders=[3][Order(id=1,symbol="EURUSD",side=buy,' \
                 'type=market,price=1.23456,volume=1000.0),Order(id=2,symbol="EURUSD",side=sell,type=limit,' \
                 'price=1.0,volume=100.0),Order(id=3,symbol="EURUSD",side=buy,type=stop,price=1.5,volume=10.0)])',
                 acc.inspect
    assert_equal "Order(id=0,symbol=\"\",side=77,type=market,price=0.0,volume=0.0)", proto::Order.new(side: 77).inspect
    assert_equal acc.inspect, acc.to_s
  end

  def test_plain_hashes
    acc = readme_account
    h = { id: 1, name: "Test", state: 6, wallet: { currency: "USD", amount: 1000.0 },
          asset: { "currency" => "EUR", "amount" => 100.0 },
          orders: acc.orders.map(&:to_h) }
    assert_equal acc.encode, proto.encode(:Account, h)
    assert_equal acc.encode(final: true), proto.encode(proto::Account, h, final: true)
    assert_equal proto::Account.new(id: 7).encode, proto.encode("Account", { id: 7 }) # defaults fill in
    assert_equal acc.encode, proto.encode("proto.Account", acc)
    assert_equal acc, proto.decode(:Account, proto.encode(:Account, h))
    assert proto.verify(:Account, acc.encode)
    assert_equal acc.to_json, proto.to_json(:Account, h)
    assert_equal acc, proto.from_json(:Account, acc.to_json)
    # an instance of the same struct from another load of the schema
    other = FBE.load_package("proto", include: [Helper::SCHEMAS])
    assert_equal acc.encode, proto.encode(:Account, readme_account(other))
  end

  def test_equality_hash_and_order
    a = proto::Account.new(id: 1, name: "a")
    b = proto::Account.new(id: 1, name: "b")
    c = proto::Account.new(id: 2, name: "a")
    refute_equal a, b # == is deep: every field
    refute a.eql?(b)
    assert_equal a, proto::Account.new(id: 1, name: "a")
    assert a.eql?(proto::Account.new(id: 1, name: "a"))
    assert_equal a, proto::Account.decode(a.encode)
    assert_equal proto::Account.new(id: 1, state: 6), proto::Account.new(id: 1, state: :good) # as the core holds them
    assert_equal a.hash, b.hash # the hash of the [key] fields (id)
    refute_equal a.hash, c.hash
    assert_equal 3, { a => 1, b => 2, c => 3 }.size
    assert_equal 2, { a => 1, proto::Account.new(id: 1, name: "a") => 2, c => 3 }.size
    refute_equal a, proto::Order.new(id: 1)
    refute_equal a, a.to_h
    assert proto::Account.same_value?(a, { id: 1, name: "a" })
    # <=> orders by the [key] fields (Comparable); nil for a struct without keys
    assert_equal [0, -1, 1], [a <=> b, a <=> c, c <=> a]
    assert a < c
    assert_equal [a, c], [c, a].sort
    assert_nil a <=> proto::Order.new(id: 1)
    assert_nil a <=> 1
    bytes = schema_test::StructBytes
    b1 = bytes.new(f1: "x".b)
    assert_empty bytes.keys
    assert_nil b1 <=> bytes.new(f1: "y".b)
    assert_raises(::ArgumentError) { b1 < bytes.new }
    assert_equal 0, b1.hash # no [key] fields: every value hashes alike
    assert_equal b1, bytes.new(f1: "x".b)
    refute_equal b1, bytes.new(f1: "y".b)
    # a value that does not convert raises its error from ==, hash and <=>, as encode does
    bad = proto::Account.new(id: "x")
    assert_raises(FBE::TypeMismatchError) { bad == a }
    assert_raises(FBE::TypeMismatchError) { bad.hash }
    assert_raises(FBE::TypeMismatchError) { bad <=> a }
  end

  # One printed form everywhere: the core's text (docs/TEXT.md), also for pp.
  def test_printing
    o = schema_test::StructOptional.new(f155: proto::OrderSide::SELL, f157: proto::OrderType::LIMIT, f163: 6)
    text = o.inspect # optional enums and flags print by name, like every other
    assert_includes text, ",f154=null,f155=sell,f156=null,f157=limit,"
    assert_includes text, ",f162=null,f163=initialized|calculated|good,f164=null,"
    assert_equal proto::Order.new.inspect, proto::Order.new.to_s
    assert_equal "#{o.inspect}\n", PP.pp(o, +"")
    acc = readme_account
    assert_equal acc.inspect, proto::Account.decode(acc.encode(final: true), final: true).inspect
    acc.orders[1].price = "1.0"
    assert_equal "Account(<invalid: expected double, got a string at 'orders[1].price'>)", acc.inspect
    assert_equal "StructEmpty()", schema_test::StructEmpty.new.inspect
  end

  # Plain data out and in, deep: to_h and from_h.
  def test_to_h_and_from_h
    acc = readme_account
    h = acc.to_h
    assert_equal({ currency: "USD", amount: 1000.0 }, h[:wallet])
    assert_equal({ id: 2, symbol: "EURUSD", side: 1, type: 1, price: 1.0, volume: 100.0 }, h[:orders][1])
    assert_equal acc, proto::Account.from_h(h)
    assert_equal acc, proto::Account.from_h(JSON.parse(JSON.generate(h))) # String keys too
    assert_kind_of proto::Order, proto::Account.from_h(h).orders[0]
    m = schema_test::StructMap.new(f9: { 4 => schema_test::StructSimple.new(id: 9) })
    assert_equal 9, m.to_h[:f9][4][:id]
    s = schema_test::StructSet.new(f4: Set[schema_test::StructSimple.new(id: 3)])
    assert_equal [3], s.to_h[:f4].map { |x| x[:id] }
    assert_equal({ id: 1, symbol: "EURUSD", side: 1 }.to_a, proto::Order.new(id: 1, symbol: "EURUSD", side: 1).to_h.first(3))
    assert_equal [%w[id 1]], proto::Order.new(id: 1).to_h { |k, v| [k.to_s, v.to_s] }.first(1)
    # from_h checks like encode and converts: names to numbers, Times to nanoseconds
    o = proto::Order.from_h({ id: 1, side: :sell })
    assert_equal [1, 1, 0.0], [o.id, o.side, o.volume]
    e = assert_raises(FBE::UnknownFieldError) { proto::Account.from_h({ wallet: { currncy: "USD" } }) }
    assert_equal "unknown field 'currncy' of proto.Balance (did you mean 'currency'?) at 'wallet'", e.message
    assert_raises(FBE::TypeMismatchError) { proto::Account.from_h(5) }
  end

  def test_dup_and_clone_are_deep
    acc = readme_account
    [acc.dup, acc.clone, acc.freeze.clone].each do |copy|
      assert_equal acc, copy
      copy.orders[0].symbol << "!"
      copy.orders << proto::Order.new
      copy.wallet.amount = 1.0
      copy.name << "?"
    end
    assert_equal readme_account, acc
    m = schema_test::StructMap.new(f9: { 4 => schema_test::StructSimple.new(id: 9) })
    m.dup.f9[4].id = 10
    assert_equal 9, m.f9[4].id
    assert acc.clone.frozen?
    refute acc.dup.frozen?
  end

  def test_enums_and_flags
    st = proto::State
    assert st.flags?
    refute proto::OrderSide.flags?
    assert_equal 6, st::GOOD
    assert_equal 6, st[:good]
    assert_equal 6, st["GOOD"]
    assert_equal "good", st.name_of(6)
    assert_nil st.name_of(99)
    assert_equal %w[invalid broken bad], st.names_of(0x09)
    assert_equal "proto.State", st.fbe_name
    assert_equal({ ENUM_VALUE_0: 0, ENUM_VALUE_1: 1, ENUM_VALUE_2: 2, ENUM_VALUE_3: 3, ENUM_VALUE_4: 4, ENUM_VALUE_5: 3 },
                 schema_test::EnumSimple.values)
    assert_equal "1".ord, schema_test::EnumTyped::ENUM_VALUE_1
    assert_equal 0x2A, schema_test::FlagsTyped::FLAG_VALUE_9
    # names work as values; values the schema does not name survive a round trip
    assert_equal proto.encode(:Account, { state: 6 }), proto.encode(:Account, { state: :good })
    o = proto::Order.decode(proto::Order.new(side: 77, type: 200).encode)
    assert_equal [77, 200], [o.side, o.type]
    assert_equal proto::Order.new(side: 77, type: 200).encode, o.encode
  end

  def test_type_mapping
    t = schema_test
    v = t::StructSimple.new(f5: "A", f7: "ф", f33: Time.at(1, 500, :nsec), f29: 7, f30: BigDecimal("-1.25"),
                            f36: "01234567-89ab-cdef-0123-456789ABCDEF")
    back = t::StructSimple.decode(v.encode)
    assert_equal ["A".ord, "ф".ord], [back.f5, back.f7]
    assert_equal 1_000_000_500, back.f33
    assert_equal [BigDecimal("7"), BigDecimal("-1.25")], [back.f29, back.f30]
    assert_kind_of BigDecimal, back.f30
    assert_equal "01234567-89ab-cdef-0123-456789abcdef", back.f36
    b = t::StructBytes.decode(t::StructBytes.new(f1: "\x00\xFFab".b, f2: "utf8 é").encode)
    assert_equal ["\x00\xFFab".b, Encoding::BINARY], [b.f1, b.f1.encoding]
    assert_equal "utf8 é".b, b.f2
    assert_nil b.f3
    vec = t::StructVector.new(f1: [1, 2], f2: [nil, 3], f5: [1, :ENUM_VALUE_2], f9: [{ id: 5 }])
    back = t::StructVector.decode(vec.encode)
    assert_equal [[1, 2], [nil, 3], [1, 2]], [back.f1, back.f2, back.f5]
    assert_equal 5, back.f9[0].id
    s = t::StructSet.decode(t::StructSet.new(f1: Set[3, 1, 2], f2: [1]).encode)
    assert_equal Set[3, 1, 2], s.f1
    assert_equal [3, 1, 2], t::StructSet.decode(t::StructSet.new(f1: Set[3, 1, 2]).encode, ordered: true).f1
    m = t::StructMap.new(f1: { 1 => 10, 2 => 20 }, f2: { 3 => nil }, f9: { 4 => t::StructSimple.new(id: 9) })
    back = t::StructMap.decode(m.encode)
    assert_equal({ 1 => 10, 2 => 20 }, back.f1)
    assert_equal({ 3 => nil }, back.f2)
    assert_equal 9, back.f9[4].id
    assert_equal [[1, 10], [2, 20]], t::StructMap.decode(m.encode, ordered: true).f1
    assert_equal m.encode, t::StructMap.new(f1: [[1, 10], [2, 20]], f2: [[3, nil]], f9: m.f9).encode
    a = t::StructArray.new(f1: [1, 2], f2: [nil, 1], f3: ["a", "b"], f4: [nil, "c"], f5: [0, 1], f6: [nil, nil],
                           f7: [0, 1], f8: [nil, 4], f9: [{}, {}], f10: [nil, {}])
    back = t::StructArray.decode(a.encode)
    assert_equal [[1, 2], [nil, 1], ["a".b, "b".b]], [back.f1, back.f2, back.f3]
    h = t::StructHash.decode(t::StructHash.new(f1: { "k" => 1 }).encode)
    assert_equal({ "k" => 1 }, h.f1)
  end

  def test_decimal_scale
    s = FBE.load_string("package d\nstruct D { decimal d; }")
    [["1.50", "1.50"], ["0.000", "0.000"], ["-0", "-0"], ["100", "100"], ["1E-28", "1E-28"]].each do |text, json|
      v = s::D.from_json(%({"d":"#{text}"}))
      assert_equal BigDecimal(text), v.d
      assert_equal %({"d":"#{json}"}), v.to_json # the decoded BigDecimal keeps its wire scale
      assert_equal v.encode, s::D.decode(v.encode).encode
    end
    assert_equal %({"d":"1.5"}), s::D.new(d: BigDecimal("1.50")).to_json # a new one: its shortest form
    assert_equal %({"d":"0"}), s::D.new(d: BigDecimal("0")).to_json
  end

  def test_json
    acc = readme_account
    text = acc.to_json
    assert_equal Encoding::UTF_8, text.encoding
    assert_equal readme_account.to_h.keys.map(&:to_s), JSON.parse(text).keys
    assert_equal acc, proto::Account.from_json(text)
    e = assert_raises(FBE::UnknownFieldError) { proto::Order.from_json('{"id":1,"symbl":"x"}') } # strict by default
    assert_equal "symbl", e.message[/'(\w+)'/, 1]
    assert_equal 1, proto::Order.from_json('{"id":1,"symbl":"x"}', ignore_unknown: true).id
    assert_equal 1, proto.from_json(:Order, '{"id":1,"symbl":"x"}', ignore_unknown: true).id
    assert_includes acc.to_json(pretty: true), "\n  \"id\": 1"
    assert_equal %({"a":#{text}}), JSON.generate({ a: acc }) # the json library embeds the same text
    assert_equal text, proto::Account.from_json(text.b).to_json
  end

  def test_sender_receiver
    msg = proto::AccountMessage.new(body: readme_account)
    order = proto::OrderMessage.new(body: readme_account.orders[0])
    io = StringIO.new(String.new)
    sender = FBE::Sender.new(proto, io)
    assert_equal sender.send_message(msg), io.string.bytesize
    sender << order
    chunks = []
    proto.sender { |bytes| chunks << bytes }.send_message(msg)
    assert_equal [io.string.byteslice(0, chunks[0].bytesize)], chunks
    got = FBE::Receiver.new(proto).feed(io.string)
    assert_equal [proto::AccountMessage, proto::OrderMessage], got.map(&:class)
    assert proto::AccountMessage.same_value?(msg, got[0])
    # over an IO, with a block
    handled = []
    r = proto.receiver { |m| handled << m }
    rd, wr = IO.pipe
    wr.write(io.string)
    wr.close
    assert_nil r.receive_from(rd, chunk_size: 7)
    assert_equal 2, handled.size
    assert_equal [2, 0, 0], [r.received, r.skipped, r.pending]
    assert_equal 2, FBE::Receiver.new(proto).receive_from(io.string.each_char.each_slice(5).map(&:join)).size
    # final model, a callable sink, partial frames
    out = String.new
    s2 = FBE::Sender.new(proto, ->(b) { out << b }, final: true)
    s2.send_message(msg)
    r2 = FBE::Receiver.new(proto, final: true)
    assert_empty r2.feed(out.byteslice(0, 10))
    assert_equal 10, r2.pending
    assert_equal 1, r2.feed(out.byteslice(10..)).size
    r2.feed(out.byteslice(0, 5))
    r2.reset
    assert_equal 0, r2.pending
    # a protoex receiver takes proto messages too; a proto receiver skips protoex ones
    ex = Helper.schema("protoex")
    assert_equal 1, FBE::Receiver.new(ex, package: "protoex").feed(io.string.byteslice(0, chunks[0].bytesize)).size
    exdata = String.new
    FBE::Sender.new(ex, exdata).send_message(ex::OrderMessage.new)
    skipper = FBE::Receiver.new(Helper.schema("protoex"), package: "proto")
    assert_empty skipper.feed(exdata)
    assert_equal 1, skipper.skipped
    sender.close
    assert_raises(FBE::Error) { sender.send_message(msg) }
    r.close
    assert_raises(FBE::Error) { r.feed("") }
  end

  def test_threads
    acc = readme_account
    data = acc.encode
    results = Array.new(4) do
      Thread.new do
        ok = true
        2000.times do
          ok &&= proto::Account.decode(acc.encode) == acc
          ok &&= proto::Account.decode(data).encode == data
        end
        ok
      end
    end.map(&:value)
    assert_equal [true] * 4, results
  end

  def test_large_values_release_the_gvl
    t = schema_test::StructBytes
    big = Array.new(4) { |i| t.new(f1: (i.chr * 300_000).b, f2: "x" * 70_000) }
    datas = big.map(&:encode)
    results = big.each_with_index.map do |v, i|
      Thread.new do
        20.times.all? do
          t.decode(v.encode) == v && t.verify(datas[i]) && t.decode(datas[i]).f1.bytesize == 300_000 &&
            t.verify!(datas[i]) == datas[i].bytesize
        end
      end
    end.map(&:value)
    assert_equal [true] * 4, results
  end

  def test_close
    s = FBE.load_package("proto", include: [Helper::SCHEMAS])
    acc = readme_account(s)
    data = acc.encode
    refute s.closed?
    s.close
    assert s.closed?
    e = assert_raises(FBE::ArgumentError) { acc.encode }
    assert_includes e.message, "closed"
    assert_raises(FBE::ArgumentError) { s::Account.decode(data) }
    assert_raises(FBE::ArgumentError) { FBE::Sender.new(s, String.new) }
    s.close # twice is fine
  end

  def test_subclass
    sub = Class.new(proto::Order) { def total = price * volume }
    o = sub.new(id: 1, price: 2.0, volume: 3.0)
    assert_equal 6.0, o.total
    assert_equal proto::Order.new(id: 1, price: 2.0, volume: 3.0).encode, o.encode
  end

  def test_versions
    assert_match(/\A\d+\.\d+\.\d+\z/, FBE::VERSION)
    assert_match(/\A\d+\.\d+/, FBE::CORE_VERSION)
    s = FBE.load_string("package w\nstruct A { int32 x; }\n")
    assert_kind_of Array, s.warnings
  end
end
