# frozen_string_literal: true

# Memory, counted exactly (no resident-size guesses, which move with the allocator, the
# kernel and the machine's load):
# - the bytes the C core holds (FBE::Core.memory_in_use, an exact count kept by the
#   core) come back to exactly where they were after a million encode/decode cycles,
#   after error paths, and after schemas dropped without a reference;
# - Ruby's live objects after a full GC (GC.stat(:heap_live_slots)) do not grow with the
#   number of cycles: a leak of one object per cycle would add a million, so a bound of
#   1000 has a thousandfold margin over what Ruby keeps for itself (method caches, a
#   few objects still referenced from the machine stack, which the GC scans
#   conservatively);
# - a short run under GC.stress (a collection at every allocation) must pass: every
#   object the C walk holds is reachable or pinned.
require "stringio"
require_relative "helper"

class TestMemory < Minitest::Test
  include Helper

  SLOT_SLACK = 1000

  # [bytes the core holds, Ruby's live objects] after a full, immediate GC.
  def settled
    GC.start(full_mark: true, immediate_sweep: true)
    [FBE::Core.memory_in_use, GC.stat(:heap_live_slots)]
  end

  def assert_no_growth(before, after, what)
    assert_equal before[0], after[0], "#{what}: the core holds #{after[0] - before[0]} more bytes"
    assert after[1] - before[1] < SLOT_SLACK, "#{what}: #{after[1] - before[1]} more live Ruby objects"
  end

  # Runs the block in a thread of its own, so that no value it made stays on the main
  # thread's stack (which the GC scans conservatively) once it is done.
  def in_thread(&block)
    Thread.new(&block).join
  end

  def test_memory_in_use_counts_the_core
    base = settled[0]
    grown = nil
    in_thread do
      s = FBE.load_package("proto", include: [Helper::SCHEMAS])
      grown = FBE::Core.memory_in_use - base
      s.name
    end
    assert grown.positive?, "a loaded schema is counted"
    assert_equal base, settled[0], "a dropped schema is uncounted"
  end

  def test_million_cycles_do_not_leak
    acc = readme_account
    account = proto::Account
    final_data = acc.encode(final: true)
    plain = acc.to_h
    run = lambda do |n, others|
      n.times { account.decode(acc.encode) }
      others.times do
        account.decode(final_data, final: true).to_json
        account.from_json(acc.to_json)
        account.verify(final_data, final: true)
        acc.inspect
        account.from_h(plain) == acc && acc.hash && (acc <=> acc)
      end
    end
    run.call(20_000, 1000) # warm up: the scratch arena and buffer reach their size
    before = settled
    run.call(1_000_000, 50_000)
    assert_no_growth before, settled, "1e6 cycles"
  end

  def test_error_paths_do_not_leak
    acc = readme_account
    acc.orders[2].symbol = 5
    bad = "\x10\x00\x00\x00".b + "\x00".b * 4
    run = lambda do |n|
      n.times do
        begin
          acc.encode
        rescue FBE::TypeMismatchError
          nil
        end
        begin
          proto::Account.decode(bad)
        rescue FBE::MalformedError
          nil
        end
        begin
          proto.encode(:Account, { id: 1, nope: 2 })
        rescue FBE::UnknownFieldError
          nil
        end
        acc.inspect # prints the error: Account(<invalid: ...>)
      end
    end
    run.call(5_000)
    before = settled
    run.call(100_000)
    assert_no_growth before, settled, "1e5 rounds of three errors and an invalid text"
  end

  # Views: opened, read, materialized, printed and compared, also refused and closed under
  # a view; nothing stays in the core or in Ruby once they are dropped.
  def test_views_do_not_leak
    acc = readme_account
    account = proto::Account
    data = acc.encode
    final_data = acc.encode(final: true)
    run = lambda do |n|
      n.times do
        v = account.view(data)
        v.name && v.wallet.currency && v.orders[2].symbol && v.orders.map(&:price)
        f = account.view(final_data, model: :final)
        v.to_value == acc && v == acc && f == v && f.to_s && v.orders.to_json
        begin
          account.view(data.byteslice(0, 20))
        rescue FBE::MalformedError
          nil
        end
      end
    end
    run.call(5_000)
    before = settled
    run.call(100_000)
    assert_no_growth before, settled, "1e5 rounds of views"
  end

  def test_dropped_schemas_are_freed
    got = 0
    round = lambda do
      200.times do
        s = FBE.load_package("proto", include: [Helper::SCHEMAS])
        s::Account.decode(readme_account(s).encode)
        stream = String.new
        FBE::Sender.new(s, stream).send_message(s::OrderMessage.new)
        FBE::Receiver.new(s) { |_m| got += 1 }.feed(stream)
      end
    end
    # The warm-up runs the very call sites measured below: Ruby's inline method caches
    # keep the class each call site saw last (so one schema of the last round stays
    # alive until a later round replaces it), the same one schema before and after.
    # 2000 schemas: a leak of one Ruby object each would be twice the slack.
    in_thread(&round)
    before = settled
    10.times { in_thread(&round) }
    assert_equal 2200, got
    assert_no_growth before, settled, "2000 schemas, senders and receivers dropped"
  end

  def test_gc_compact
    s = FBE.load_package("proto", include: [Helper::SCHEMAS])
    acc = readme_account(s)
    data = acc.encode
    GC.compact
    GC.compact
    assert_equal data, acc.encode
    assert_equal acc, s::Account.decode(data)
    assert_equal data, s.encode(:Account, s::Account.decode(data).to_h)
    assert_raises(FBE::UnknownFieldError) { s.encode(:Account, { nope: 1 }) }
    assert_equal 6, s::State[:good]
  end

  def test_gc_stress
    s = FBE.load_package("proto", include: [Helper::SCHEMAS])
    data = readme_account(s).encode
    stream = String.new
    GC.stress = true
    begin
      1.times do
        acc = readme_account(s)
        assert_equal data, acc.encode
        back = s::Account.decode(data)
        assert_equal "EURUSD", back.orders[2].symbol
        assert s::Account.same_value?(acc, s::Account.from_json(acc.to_json))
        assert_equal acc, s::Account.from_h(acc.to_h)
        assert_equal acc.hash, back.hash
        assert_equal acc.inspect, back.inspect
        assert_equal acc, acc.dup
        assert_equal data, s.encode(:Account, { id: 1, name: "Test", state: 6,
                                                wallet: { currency: "USD", amount: 1000.0 },
                                                asset: { currency: "EUR", amount: 100.0 },
                                                orders: acc.orders.map(&:to_h) })
        FBE::Sender.new(s, stream).send_message(s::AccountMessage.new(body: back))
        got = []
        FBE::Receiver.new(s) { |m| got << m }.feed(stream)
        refute_empty got
        t = FBE.load_string("package g\nstruct A { string s = \"x\"; decimal d = 1.50; int32[] v; }")
        assert_equal "x", t::A.decode(t::A.new(v: [1, 2]).encode).s
      end
    ensure
      GC.stress = false
    end
    GC.start
    assert_equal data, s::Account.decode(data).encode
  end
end
