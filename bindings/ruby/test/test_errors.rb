# frozen_string_literal: true

# Every error path raises an FBE::Error subclass with the core's message, the value path
# and the byte offset: wrong types, out-of-range values, malformed bytes, bad JSON, bad
# schemas, closed objects, exceptions from user code inside a call. Never a crash.
require "stringio"
require_relative "helper"

class TestErrors < Minitest::Test
  include Helper

  def encode_error(cls, value, type = FBE::Error)
    e = assert_raises(type) { cls.schema.encode(cls, value) }
    [e.reason, e.path]
  end

  def test_hierarchy
    classes = [FBE::OutOfMemoryError, FBE::ArgumentError, FBE::SchemaError, FBE::NotFoundError,
               FBE::TypeMismatchError, FBE::RangeError, FBE::MalformedError, FBE::JSONError,
               FBE::LimitError, FBE::StreamError, FBE::UnknownFieldError]
    classes.each { |c| assert c < FBE::Error, c.name }
    assert FBE::Error < StandardError
    assert FBE::UnknownFieldError < FBE::NotFoundError
    e = FBE::MalformedError.new("bad", 7, "orders[1]", 12)
    assert_equal "bad at 'orders[1]' (offset 12)", e.message
    assert_equal ["bad", "orders[1]", 12, 7, "FBE_ERR_MALFORMED"], [e.reason, e.path, e.offset, e.code, e.status]
    assert_equal "plain", FBE::Error.new("plain").message
    assert_nil FBE::Error.new("plain").offset
  end

  def test_schema_errors
    e = assert_raises(FBE::SchemaError) { FBE.load_string("package p\nstruct A { int32 x; nosuchtype y; }\n", name: "bad.fbe") }
    assert_match(/\Acannot load bad.fbe: bad.fbe:2:\d+: /, e.message)
    assert(e.diagnostics.any? { |d| d.include?("nosuchtype") })
    assert_raises(FBE::SchemaError) { FBE.load("/nonexistent/x.fbe") }
    assert_raises(FBE::SchemaError) { FBE.load_package("nosuchpackage", include: [Helper::SCHEMAS]) }
    assert_raises(FBE::SchemaError) { FBE.load_string("package p\0") }
    e = assert_raises(FBE::NotFoundError) { proto[:Nope] }
    assert_equal "no type 'Nope' in package proto", e.message
    assert_raises(FBE::NotFoundError) { proto.encode(:OrderSide, {}) }
    # the core's words (fbei_error_unknown_type), the nearest name suggested
    e = assert_raises(FBE::NotFoundError) { proto["Acount"] }
    assert_equal ["no type 'Acount' in package proto (did you mean 'Account'?)", FBE::Core::FBE_ERR_NOT_FOUND],
                 [e.message, e.code]
    e = assert_raises(FBE::NotFoundError) { proto.encode(:Acount, {}) }
    assert_equal "no struct 'Acount' in package proto (did you mean 'Account'?)", e.message
    assert_raises(NameError) { proto::Acount } # plain constants: Ruby's own error
    assert_raises(FBE::TypeMismatchError) { FBE::Native.encode(String, "x", false) }
  end

  def test_type_errors
    t = schema_test
    ss = t::StructSimple
    # the core's words (docs/INPUT.md); test_input.rb has the whole table
    [[{ f1: 1 }, "f1", "expected bool, got an integer"],
     [{ id: "1" }, "id", "expected int32, got a string"],
     [{ id: 1.0 }, "id", "expected int32, got a float"],
     [{ f27: "x" }, "f27", "expected double, got a string"],
     [{ f29: 1.5 }, "f29", "expected decimal, got a float (binary floats are not exact: pass a decimal or its text)"],
     [{ f31: :sym }, "f31", "expected string, got a Symbol"],
     [{ f33: "now" }, "f33", "expected timestamp, got a string"],
     [{ f36: 5 }, "f36", "expected uuid, got an integer"],
     [{ f39: 1.0 }, "f39", "expected proto.OrderSide, got a float"],
     [{ f41: 5 }, "f41", "expected proto.Order, got an integer"],
     [{ f44: { orders: [{ symbol: 1 }] } }, "f44.orders[0].symbol", "expected string, got an integer"],
     [{ f44: { orders: {} } }, "f44.orders", "expected vector of proto.Order, got a map"]].each do |value, path, message|
      reason, got_path = encode_error(ss, value, FBE::TypeMismatchError)
      assert_equal [message, path], [reason, got_path], value.inspect
    end
    assert_equal ["expected set of byte, got an integer", "f1"], encode_error(t::StructSet, { f1: 5 }, FBE::TypeMismatchError)
    assert_equal ["expected map of int32 to byte, got a string", "f1"],
                 encode_error(t::StructMap, { f1: "x" }, FBE::TypeMismatchError)
    assert_equal ["expected map of int32 to byte, got an integer", "f1[0]"], # not a [key, value] pair
                 encode_error(t::StructMap, { f1: [1] }, FBE::TypeMismatchError)
    assert_equal ["expected int32, got a string", "f1[0][key]"],
                 encode_error(t::StructMap, { f1: { "k" => 1 } }, FBE::TypeMismatchError)
    assert_equal ["expected byte, got a string", "f1[0]"], encode_error(t::StructMap, { f1: { 1 => "v" } }, FBE::TypeMismatchError)
    assert_equal ["expected proto.Account, got a list", ""], encode_error(proto::Account, [1], FBE::TypeMismatchError)
    e = assert_raises(FBE::UnknownFieldError) { proto.encode(:Order, { id: 1, nope: 2 }) }
    assert_equal "unknown field 'nope' of proto.Order", e.reason
    assert_raises(FBE::TypeMismatchError) { proto::Order.decode(5) }
    assert_raises(FBE::TypeMismatchError) { proto::Order.verify(nil) }
    assert_raises(FBE::TypeMismatchError) { proto::Order.from_json(:x) }
    e = assert_raises(FBE::TypeMismatchError) { FBE::Native.decode(Struct.new(:a), "x", false, false, false, nil) }
    assert_match(/\Aexpected a struct class of a loaded schema, got /, e.reason)
    assert_equal ["expected int32, got null", "id"], encode_error(proto::Account, proto::Account.allocate)
  end

  def test_engines_misused
    assert_nil FBE::Native::SenderEngine.allocate.close
    assert_raises(FBE::ArgumentError) { FBE::Native::SenderEngine.allocate.send_message(1) }
    assert_raises(FBE::ArgumentError) { FBE::Native::ReceiverEngine.allocate.feed("x") }
    assert_raises(::TypeError) { FBE::Native.close(5) }
    assert_raises(::TypeError) { FBE::Native.bind(5, [], []) }
    assert_raises(::ArgumentError) { FBE::Core.fbe_struct_name(nil) } # SWIG: NULL handle
    e = assert_raises(FBE::LimitError) { proto::Account.decode("x" * 100) }
    assert_equal 0, e.offset
  end

  def test_range_errors
    ss = schema_test::StructSimple
    [[{ f9: 128 }, "value 128 does not fit int8"], [{ f11: -1 }, "value -1 does not fit uint8"],
     [{ f13: -32_769 }, "value -32769 does not fit int16"], [{ f19: 2**32 }, "value 4294967296 does not fit uint32"],
     [{ f21: 2**63 }, "value 9223372036854775808 does not fit int64"],
     [{ f21: -2**63 - 1 }, "value -9223372036854775809 does not fit int64"],
     [{ f23: 2**64 }, "value 18446744073709551616 does not fit uint64"], [{ f23: -1 }, "value -1 does not fit uint64"],
     [{ f25: 1e300 }, "value 1.0e+300 does not fit float"],
     [{ f27: 2**1024 }, "value 179769313486231590772930519078902473361797697894230657273430 does not fit double"],
     [{ f5: "ф" }, "value 1092 does not fit char"],
     [{ f39: 256 }, "value 256 does not fit byte"]].each do |value, message|
      reason, path = encode_error(ss, value, FBE::RangeError)
      assert_equal [message, value.keys.first.to_s], [reason, path]
    end
    assert_equal 2**63 - 1, ss.decode(ss.new(f21: 2**63 - 1).encode).f21
    assert_equal(-2**63, ss.decode(ss.new(f21: -2**63).encode).f21)
    assert_equal 2**64 - 1, ss.decode(ss.new(f23: 2**64 - 1).encode).f23
    assert_equal 2.0**60, ss.decode(ss.new(f27: 2**60).encode).f27
    assert_equal 2.0**200, ss.decode(ss.new(f27: 2**200 + 1).encode).f27 # an Integer: the nearest double
    reason, = encode_error(ss, { f29: BigDecimal("1e40") }, FBE::RangeError)
    assert_includes reason, "does not fit FBE's decimal"
    reason, = encode_error(ss, { f29: BigDecimal("NaN") }, FBE::ArgumentError)
    assert_equal "'NaN' is not a decimal number", reason
    assert_equal ["expected proto.Balance, got a struct proto.Order", "f42"],
                 encode_error(ss, { f42: proto::Order.new }, FBE::TypeMismatchError)
    assert_equal ["string is not valid UTF-8: the byte 0xff, which UTF-8 never uses at byte 0 of 1", "f7"],
                 encode_error(ss, { f7: "\xFF".dup.force_encoding("UTF-8") }, FBE::ArgumentError)
    reason, = encode_error(ss, { f36: "a\0b" }, FBE::ArgumentError)
    assert_equal "'a\\x00b' is not a uuid (8-4-4-4-12 hexadecimal digits)", reason # the whole text, quoted by the core
    reason, = encode_error(ss, { f5: "ab" }, FBE::ArgumentError)
    assert_equal "'ab' is not one character", reason
    assert_equal ["expected 2 elements for array[2] of byte, got 3", "f1"],
                 encode_error(schema_test::StructArray, { f1: [1, 2, 3] }, FBE::RangeError)
    e = assert_raises(FBE::ArgumentError) { ss.new(f36: "not-a-uuid").encode }
    assert_equal ["'not-a-uuid' is not a uuid (8-4-4-4-12 hexadecimal digits)", "f36"], [e.reason, e.path]
    e = assert_raises(FBE::ArgumentError) { ss.new(f39: :nope).encode }
    assert_equal "'nope' is not a value of proto.OrderSide", e.reason
  end

  def test_strings
    ss = schema_test::StructSimple
    # the core's check and words, as in every binding; nothing becomes U+FFFD
    e = assert_raises(FBE::ArgumentError) { ss.new(f31: "\xFF\xFE".dup.force_encoding("UTF-8")).encode }
    assert_equal ["string is not valid UTF-8: the byte 0xff, which UTF-8 never uses at byte 0 of 2", "f31"],
                 [e.reason, e.path]
    e = assert_raises(FBE::ArgumentError) { ss.new(f31: "\xED\xA0\x80x!".b).encode(final: true) }
    assert_equal ["string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 0 of 5", "f31"],
                 [e.reason, e.path]
    assert_raises(FBE::ArgumentError) { ss.new(f31: "\xFF".b).encode }
    assert_equal "é", ss.decode(ss.new(f31: "é".b).encode).f31 # binary holding UTF-8 is fine
    assert_equal "é", ss.decode(ss.new(f31: "é".encode("ISO-8859-1")).encode).f31 # converted
    # bytes on the wire that are not UTF-8, in a string field
    bs = FBE.load_string("package u\nstruct S { string s; }")
    data = bs::S.new(s: "ab").encode
    bad = data.sub("ab", "\xC3(".b)
    e = assert_raises(FBE::MalformedError) { bs::S.decode(bad) }
    assert_equal ["string is not valid UTF-8: a sequence cut short (0x28 is not a continuation byte) at byte 0 of 2",
                  "s"], [e.reason, e.path]
    refute bs::S.verify(bad)
    e = assert_raises(FBE::MalformedError) { bs::S.decode(bad, trusted: true) }
    assert_equal "s", e.path
  end

  # Final-model bytes of `struct N { int32 v; N? next; }` nested `levels` optionals deep:
  # encoded up to 256, one level more added by hand (v, then flag 1).
  def chain_final(s, levels)
    node = s::N.new(v: 0)
    [levels, 256].min.times { node = s::N.new(v: 0, next: node) }
    data = node.encode(final: true)
    (levels - 256).times { data = [data.bytesize + 5].pack("V") + data.byteslice(4, 4) + "\0\0\0\0\1".b + data.byteslice(8..) }
    data
  end

  # The core's depth rule and no lower cap: 256 levels of optionals encode and decode in
  # both models, 257 are refused with LimitError by encode and by decode.
  def test_depth_boundary
    s = FBE.load_string("package deep\nstruct N { int32 v; N? next; }")
    node = s::N.new(v: 0)
    256.times { node = s::N.new(v: 0, next: node) }
    [false, true].each do |final|
      data = node.encode(final: final)
      assert_equal node, s::N.decode(data, final: final)
      assert_equal node, s::N.decode(data, final: final, trusted: true)
      e = assert_raises(FBE::LimitError) { s::N.new(v: 0, next: node).encode(final: final) }
      assert_includes e.reason, "nested deeper than 256 levels"
    end
    assert_equal node.encode(final: true), chain_final(s, 256)
    bad = chain_final(s, 257)
    refute s::N.verify(bad, final: true)
    [false, true].each do |trusted|
      e = assert_raises(FBE::LimitError) { s::N.decode(bad, final: true, trusted: trusted) }
      assert_includes e.reason, "nesting deeper than 256 levels"
    end
  end

  def test_nesting_limit
    s = FBE.load_string("package r\nstruct Node { int32 v; Node[] kids; }")
    deep = { v: 0 }
    300.times { deep = { v: 1, kids: [deep] } }
    e = assert_raises(FBE::LimitError) { s.encode(:Node, deep) }
    assert_includes e.reason, "nested deeper than 256 levels"
    # 257 levels do not fit the core's path room: the inner parts, whole, marked as cut
    assert_match(/\A\.\.\.(\[0\]\.)?kids\[0\](\.kids\[0\])+/, e.path)
    cyclic = s::Node.new(v: 1)
    cyclic.kids << cyclic # a cycle ends at the same limit, not in a stack overflow
    assert_raises(FBE::LimitError) { cyclic.encode }
    ok = { v: 0 }
    100.times { ok = { v: 1, kids: [ok] } }
    assert s::Node.verify(s.encode(:Node, ok))
  end

  def test_malformed_bytes
    data = readme_account.encode
    e = assert_raises(FBE::MalformedError) { proto::Account.decode(data.byteslice(0, 3)) }
    assert_equal 0, e.offset
    refute proto::Account.verify(data.byteslice(0, data.bytesize - 1))
    e = assert_raises(FBE::Error) { proto::Account.verify!(data.byteslice(0, 40)) }
    refute_nil e.offset
    refute proto::Account.verify("")
    refute proto::Account.verify(data, final: true)
    # every truncation and every single-byte change: decode refuses what verify refuses,
    # with its error; the trusted decode gives an error or a value, never a crash
    (0...data.bytesize).each do |n|
      [data.byteslice(0, n), data.dup.tap { |d| d.setbyte(n, d.getbyte(n) ^ 0xFF) }].each do |bytes|
        [false, true].each do |final|
          assert_decode_refused_as_verify(proto::Account, bytes, final: final) unless proto::Account.verify(bytes, final: final)
          begin
            proto::Account.decode(bytes, final: final, trusted: true)
          rescue FBE::Error
            nil
          end
        end
      end
    end
  end

  # verify rejects data, and decode raises verify's very error (class, code, reason, path,
  # offset): the one verify! raises. Returns it.
  def assert_decode_refused_as_verify(cls, data, final: false)
    assert_same false, cls.verify(data, final: final)
    want = assert_raises(FBE::Error) { cls.verify!(data, final: final) }
    got = assert_raises(FBE::Error) { cls.decode(data, final: final) }
    assert_equal [want.class, want.code, want.reason, want.path, want.offset, want.message],
                 [got.class, got.code, got.reason, got.path, got.offset, got.message]
    got
  end

  def test_decode_verifies
    # another struct's bytes, both models: the type id
    [false, true].each do |final|
      data = readme_account.encode(final: final)
      e = assert_decode_refused_as_verify(proto::Order, data, final: final)
      assert_kind_of FBE::MalformedError, e
      assert_equal ["type id 3 where proto.Order (1) was expected", "", final ? 4 : 12], [e.reason, e.path, e.offset]
      if final # the final model's decoder checks the root type id itself
        assert_raises(FBE::MalformedError) { proto::Order.decode(data, final: true, trusted: true) }
      else # the trusted decode reads the Account's body as an Order
        assert_kind_of proto::Order, proto::Order.decode(data, trusted: true)
      end
    end
    # a malformed model: the orders count past the model
    bad = readme_account.encode.dup
    bad[0x68, 4] = [0x7fffffff].pack("V")
    e = assert_decode_refused_as_verify(proto::Account, bad)
    assert_equal ["orders", 104], [e.path, e.offset]
    assert_match(/do not fit/, e.reason)
    # the public malformed records
    Helper.records("malformed.jsonl").each do |rec|
      cls = Helper.schema(rec["schema"])[rec["type"]]
      assert_decode_refused_as_verify(cls, Helper.bytes(rec["hex"]), final: rec["format"] == "final")
    end
    # a sibling message type of another schema version (type ids differ): refused by
    # default, read with trusted: true
    ex = Helper.schema("protoex")
    data = ex["proto.OrderMessage"].new(body: ex["proto.Order"].new(id: 7, symbol: "EURUSD")).encode
    reader = ex["protoex.OrderMessage"]
    e = assert_decode_refused_as_verify(reader, data)
    assert_match(/\Atype id 1 where protoex.OrderMessage/, e.reason)
    got = reader.decode(data, trusted: true)
    assert_equal [7, "EURUSD", 10.0, -10.0], [got.body.id, got.body.symbol, got.body.tp, got.body.sl]
    assert ex.decode("protoex.OrderMessage", data, trusted: true) == got
    assert_raises(FBE::MalformedError) { ex.decode("protoex.OrderMessage", data) }
    # verify! at the schema level: the model size, or the reason
    assert_equal 252, proto.verify!(:Account, readme_account.encode + "tail")
    e = assert_raises(FBE::MalformedError) { proto.verify!(:Account, bad) }
    assert_equal ["orders", 104], [e.path, e.offset]
  end

  def test_json_errors
    e = assert_raises(FBE::JSONError) { proto::Order.from_json('{"id": }') }
    refute_nil e.offset
    e = assert_raises(FBE::Error) { proto::Order.from_json('{"id": "x"}') }
    assert_equal "id", e.path
    assert_raises(FBE::Error) { proto::Order.from_json('{"id": 99999999999}') }
  end

  def test_protocol_errors
    msg = proto::AccountMessage.new(body: readme_account)
    sender = FBE::Sender.new(proto, ->(_b) { raise IOError, "sink broke" })
    e = assert_raises(IOError) { sender.send_message(msg) }
    assert_equal "sink broke", e.message
    good = String.new
    assert_raises(FBE::TypeMismatchError) { FBE::Sender.new(proto, good).send_message(readme_account) } # not a message
    assert_raises(FBE::TypeMismatchError) { FBE::Sender.new(proto, good).send_message("x") }
    assert_raises(::TypeError) { FBE::Sender.new(proto, 5) }
    assert_raises(FBE::NotFoundError) { FBE::Sender.new(proto, good, package: "nope") }
    assert_raises(FBE::NotFoundError) { FBE::Receiver.new(proto, package: "nope") }
    FBE::Sender.new(proto, good).send_message(msg)
    # a bad frame after a good one: the good one is delivered, the error names the offset
    bad = good + "\xFF\xFF\xFF\x7F".b + "\x00".b * 12
    r = FBE::Receiver.new(proto)
    e = assert_raises(FBE::Error) { r.feed(bad) }
    assert_equal 1, e.received.size
    refute_nil e.offset
    assert_equal 1, r.feed(good).size # the receiver goes on with the next bytes
    # the handler raising: propagated; the bytes after that message stay buffered and the
    # next feed goes on with them
    calls = 0
    r2 = FBE::Receiver.new(proto) { |_m| calls += 1; raise KeyError, "handler broke" if calls == 1 }
    assert_raises(KeyError) { r2.feed(good + good) }
    assert_equal good.bytesize, r2.pending
    r2.feed(good)
    assert_equal 3, calls
    # not re-entrant
    r3 = nil
    r3 = FBE::Receiver.new(proto) { |_m| r3.feed(good) }
    e = assert_raises(RuntimeError) { r3.feed(good) }
    assert_includes e.message, "not re-entrant"
    assert_raises(FBE::TypeMismatchError) { FBE::Receiver.new(proto).feed(5) }
    # close from inside a call
    s = FBE.load_package("proto", include: [Helper::SCHEMAS])
    r4 = FBE::Receiver.new(s) { |_m| s.close }
    data = String.new
    FBE::Sender.new(s, data).send_message(s::AccountMessage.new)
    e = assert_raises(FBE::ArgumentError) { r4.feed(data) }
    assert_includes e.message, "in use"
  end
end
