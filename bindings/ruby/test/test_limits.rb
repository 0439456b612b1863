# frozen_string_literal: true

# FBE::Limits: the core's limits against hostile input (codec.h fbe_limits) reach decode
# (verified and trusted), verify/verify!, from_json and the Receiver. The core decides
# everything: the names, ranges and error texts of a limit (fbe_limits_set) and the
# errors of crossing one, raised as FBE::LimitError with the core's text, path and offset.
require_relative "helper"

class TestLimits < Minitest::Test
  include Helper

  MIB = 1 << 20
  CHAIN = <<~FBE
    package chain
    struct Chain { int32 v; Chain? next; }
    message Deep { Chain c; }
    struct E {}
    message Many { E[] items; }
  FBE

  def chain
    @chain ||= FBE.load_string(CHAIN, name: "chain.fbe")
  end

  # The memory budget of max_memory: 0 (codec.h): 16 x the input + 1 MiB.
  def default_budget(size)
    16 * size + MIB
  end

  # proto.Account, standard model, whose orders are n pointers to ONE Order body
  # (tests/test_budget.c shared_orders): 4 bytes of input per Order decoded.
  def shared_orders(n)
    acct = 8
    wallet = 38
    block = wallet + 20
    order = block + 4 + 4 * n
    b = [0, acct].pack("V2")
    b << [30, 3, 1, 0].pack("V4") << "\0" << [wallet - acct].pack("V") << ("\0" * 5) << [block - acct].pack("V")
    b << [20, 2, 0].pack("V3") << ("\0" * 8)
    b << [n].pack("V") << ([order - acct].pack("V") * n)
    b << [34, 1, 7, 0].pack("V4") << ("\0" * 18)
    b[0, 4] = [b.bytesize].pack("V")
    b
  end

  # A final-model frame (and model) of chain.Many with count empty structs (no byte each).
  def many_frame(count)
    [12, chain::Many.type_id, count].pack("V3")
  end

  def limit_error(&block)
    assert_raises(FBE::LimitError, &block)
  end

  # The smallest max_memory with which fits holds (it holds at high).
  def smallest_budget(high)
    low = 1
    while low < high
      mid = (low + high) / 2
      if yield(FBE::Limits.new(max_memory: mid)) then high = mid
      else low = mid + 1
      end
    end
    low
  end

  # ---- the value

  def test_defaults_and_members
    d = FBE::Limits.new
    assert_equal [0, 0, 0], [d.max_depth, d.max_model_size, d.max_memory]
    assert_equal "#<FBE::Limits max_depth=0, max_model_size=0, max_memory=0>", d.inspect
    assert d.frozen?
    l = FBE::Limits.new(max_depth: 64, max_model_size: 1 << 31, max_memory: 1 << 40)
    assert_equal({ max_depth: 64, max_model_size: 1 << 31, max_memory: 1 << 40 }, l.to_h)
    assert_equal l, FBE::Limits.new(max_memory: 1 << 40, max_depth: 64, max_model_size: 1 << 31)
    assert l.eql?(l.dup) && l.dup.frozen? && l.hash == FBE::Limits.new(**l.to_h).hash
    refute_equal l, d
    assert_equal d, FBE::Limits.new(max_depth: 0) # 0 is the default
    assert_equal FBE::Limits.new(max_depth: 5), FBE::Limits.new("max_depth" => 5, maxDepth: 5)
    assert_raises(FrozenError) { l.send(:initialize, max_depth: 1) }
    assert_raises(::ArgumentError) { FBE::Limits.new(5) } # keywords only
  end

  def test_out_of_range_refused_by_the_core
    [[{ max_depth: 257 }, FBE::RangeError, "max_depth must be 0 (the default) or 1..256, not 257"],
     [{ max_depth: -1 }, FBE::RangeError, "max_depth must be 0 (the default) or 1..256, not -1"],
     [{ max_model_size: 1 << 32 }, FBE::RangeError,
      "max_model_size must be 0 (the default) or 1..4294967295, not 4294967296"],
     [{ max_memory: -5 }, FBE::RangeError, "max_memory must be 0 (the default) or a byte count, not -5"],
     [{ max_size: 1 }, FBE::ArgumentError, "unknown limit 'max_size' (max_depth, max_model_size, max_memory)"],
     # Integers beyond int64 are clamped before the core sees them
     [{ max_depth: 1 << 70 }, FBE::RangeError, "max_depth must be 0 (the default) or 1..256, not 9223372036854775807"],
     [{ max_memory: -(1 << 70) }, FBE::RangeError,
      "max_memory must be 0 (the default) or a byte count, not -9223372036854775808"]].each do |kw, cls, text|
      e = assert_raises(cls) { FBE::Limits.new(**kw) }
      assert_equal [text, "", nil], [e.reason, e.path, e.offset], kw.inspect
      e = assert_raises(cls) { proto::Account.decode(proto::Account.new.encode, limits: kw) } # a Hash: the same rule
      assert_equal text, e.reason
    end
    assert_equal (1 << 63) - 1, FBE::Limits.new(max_memory: 1 << 70).max_memory # "very large"
  end

  def test_host_type_errors
    [1.0, "5", nil, true, :x].each do |bad|
      e = assert_raises(::TypeError) { FBE::Limits.new(max_depth: bad) }
      assert_includes e.message, "max_depth must be an Integer"
    end
    assert_raises(::TypeError) { FBE::Limits.new(**{ 1 => 2 }) }
    e = assert_raises(::TypeError) { chain::Deep.decode("", limits: 5) }
    assert_includes e.message, "must be an FBE::Limits, a Hash or nil, not Integer"
  end

  # ---- each limit, lowered, refuses with the core's text

  def test_max_depth
    c = chain
    value = c::Deep.new(c: c::Chain.new(v: 1, next: c::Chain.new(v: 2, next: c::Chain.new(v: 3))))
    data = value.encode
    text = value.to_json
    shallow = FBE::Limits.new(max_depth: 1)
    two = { max_depth: 2 }
    want = "nesting deeper than 1 levels (max_depth)"
    [-> { c::Deep.decode(data, limits: shallow) }, -> { c::Deep.decode(data, trusted: true, limits: shallow) },
     -> { c::Deep.verify!(data, limits: shallow) }, -> { c.decode(:Deep, data, limits: shallow) },
     -> { c.verify!(:Deep, data, limits: shallow) }, -> { c::Deep.from_json(text, limits: shallow) },
     -> { c.from_json(:Deep, text, limits: shallow) }].each do |call|
      assert_equal want, limit_error(&call).reason
    end
    refute c::Deep.verify(data, limits: shallow)
    refute c.verify(:Deep, data, limits: shallow)
    assert_equal value, c::Deep.decode(data, limits: two)
    assert_equal value, c::Deep.from_json(text, limits: two)
    assert c::Deep.verify(data, limits: two)
    out = String.new
    FBE::Sender.new(c, out).send_message(value)
    e = limit_error { c.receiver(limits: shallow).feed(out) }
    assert_equal [want, []], [e.reason, e.received]
    assert_equal [value], FBE::Receiver.new(c, limits: two).feed(out)
  end

  def test_max_model_size
    acc = readme_account
    [false, true].each do |final|
      data = acc.encode(final: final)
      size = proto::Account.verify!(data, final: final)
      small = FBE::Limits.new(max_model_size: size - 1)
      want = "model size #{size} exceeds the limit of #{size - 1} bytes (max_model_size)"
      [-> { proto::Account.decode(data, final: final, limits: small) },
       -> { proto::Account.decode(data, final: final, trusted: true, limits: small) },
       -> { proto::Account.verify!(data, final: final, limits: small) }].each do |call|
        assert_equal want, limit_error(&call).reason
      end
      refute proto::Account.verify(data, final: final, limits: small)
      assert_equal acc, proto::Account.decode(data, final: final, limits: { max_model_size: size })
    end
    text = acc.to_json
    e = limit_error { proto::Account.from_json(text, limits: { max_model_size: text.bytesize - 1 }) }
    assert_equal "JSON text of #{text.bytesize} bytes exceeds the limit of #{text.bytesize - 1} bytes (max_model_size)",
                 e.reason
    assert_equal acc, proto::Account.from_json(text, limits: { max_model_size: text.bytesize })
    out = String.new
    FBE::Sender.new(proto, out).send_message(proto::AccountMessage.new(body: acc))
    e = limit_error { FBE::Receiver.new(proto, limits: { max_model_size: out.bytesize - 1 }).feed(out) }
    assert_equal ["frame size #{out.bytesize} exceeds the limit of #{out.bytesize - 1} bytes (max_model_size)", 0],
                 [e.reason, e.offset]
  end

  # verify, decode (both) and the receiver agree to the byte on what a value costs: the
  # smallest budget verify takes is the one decode takes; one byte less refuses, naming
  # itself (and verify's refusal is decode's, path and offset included).
  def test_max_memory_one_charge
    data = shared_orders(1000)
    need = smallest_budget(1 << 30) { |l| proto::Account.verify(data, limits: l) }
    assert_operator need, :>, 1000 * 8 # every order is charged as often as it is pointed to
    enough = FBE::Limits.new(max_memory: need)
    short = FBE::Limits.new(max_memory: need - 1)
    assert_equal 1000, proto::Account.decode(data, limits: enough).orders.size
    assert_equal 1000, proto::Account.decode(data, trusted: true, limits: enough).orders.size
    want = "decoding needs more than the memory budget of #{need - 1} bytes (max_memory)"
    errors = [limit_error { proto::Account.decode(data, limits: short) },
              limit_error { proto::Account.verify!(data, limits: short) },
              limit_error { proto.decode(:Account, data, limits: short) },
              limit_error { proto::Account.decode(data, trusted: true, limits: short) }]
    errors.each { |e| assert_equal [want, errors[0].path, errors[0].offset], [e.reason, e.path, e.offset] }
    assert_equal "orders", errors[0].path
    refute_nil errors[0].offset
  end

  def test_max_memory_json
    text = "{\"orders\":[#{(['{}'] * 1000).join(',')}]}"
    assert_equal 1000, proto::Account.from_json(text).orders.size
    need = smallest_budget(1 << 30) do |l|
      proto::Account.from_json(text, limits: l)
      true
    rescue FBE::LimitError
      false
    end
    e = limit_error { proto::Account.from_json(text, limits: { max_memory: need - 1 }) }
    assert_equal ["reading JSON needs more than the memory budget of #{need - 1} bytes (max_memory)", "orders"],
                 [e.reason, e.path]
    assert_equal 1000, proto.from_json(:Account, text, limits: FBE::Limits.new(max_memory: need)).orders.size
  end

  def test_max_memory_receiver
    frame = many_frame(1000)
    assert_equal 1000, FBE::Receiver.new(chain, final: true).feed(frame)[0].items.size
    tight = chain.receiver(final: true, limits: FBE::Limits.new(max_memory: 4096))
    e = limit_error { tight.feed(frame) }
    assert_equal ["decoding needs more than the memory budget of 4096 bytes (max_memory)", [], 0],
                 [e.reason, e.received, tight.received]
    assert_equal 1, tight.feed(many_frame(10)).size # it goes on
    assert_equal 1, tight.received
  end

  # ---- hostile input under the default limits

  # 10^6 pointers to one Order (4 MB): 10^6 Orders to build, over the default budget of
  # 16 x the input + 1 MiB; refused at once with LimitError naming max_memory.
  def test_hostile_shared_bodies_refused_by_default
    data = shared_orders(1_000_000)
    want = "decoding needs more than the memory budget of #{default_budget(data.bytesize)} bytes (max_memory)"
    [-> { proto::Account.decode(data) }, -> { proto::Account.verify!(data) },
     -> { proto::Account.decode(data, trusted: true) }].each do |call|
      e = limit_error(&call)
      assert_equal [want, "orders"], [e.reason, e.path]
    end
    refute proto::Account.verify(data)
    # 10^5 of them (0.4 MB) are over the default budget as well, and decode with a raised one
    small = shared_orders(100_000)
    assert_match(/\(max_memory\)\z/, limit_error { proto::Account.decode(small) }.reason)
    acc = proto::Account.decode(small, limits: { max_memory: 1 << 30 })
    assert_equal [100_000, 7], [acc.orders.size, acc.orders[-1].id]
  end

  # 12 bytes of the final model claiming 2 x 10^6 empty structs (no byte each): over the
  # default budget, as a frame and as a model; 2 x 10^5 of them decode with a raised budget.
  def test_hostile_empty_structs_refused_by_default
    want = "decoding needs more than the memory budget of #{default_budget(12)} bytes (max_memory)"
    data = many_frame(2_000_000) # a final-model frame is a final model
    r = FBE::Receiver.new(chain, final: true)
    e = limit_error { r.feed(data) }
    assert_equal [want, "items", 0], [e.reason, e.path, r.received]
    [-> { chain::Many.decode(data, final: true) }, -> { chain::Many.verify!(data, final: true) }].each do |call|
      e = limit_error(&call)
      assert_equal [want, "items"], [e.reason, e.path]
    end
    data = many_frame(200_000)
    assert_match(/\(max_memory\)\z/, limit_error { chain::Many.decode(data, final: true) }.reason)
    assert_equal 200_000, chain::Many.decode(data, final: true, limits: FBE::Limits.new(max_memory: 1 << 30)).items.size
  end
end
