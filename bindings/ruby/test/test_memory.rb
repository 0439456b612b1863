# frozen_string_literal: true

# Memory: a million encode/decode cycles must not grow the process (RSS by less than
# 20 MB), error paths must not leak, and a short run under GC.stress (a collection at
# every allocation) must pass: every object the C walk holds is reachable or pinned.
require "stringio"
require_relative "helper"

class TestMemory < Minitest::Test
  include Helper

  def rss_bytes
    File.read("/proc/self/statm").split[1].to_i * 4096
  rescue SystemCallError
    `ps -o rss= -p #{Process.pid}`.to_i * 1024
  end

  def test_million_cycles_rss
    acc = readme_account
    account = proto::Account
    final_data = acc.encode(final: true)
    20_000.times { account.decode(acc.encode) } # warm up: heap pages, the scratch arena
    GC.start
    before = rss_bytes
    1_000_000.times { account.decode(acc.encode) }
    50_000.times do
      account.decode(final_data, final: true).to_json
      account.from_json(acc.to_json)
      account.verify(final_data, final: true)
    end
    GC.start
    grown = rss_bytes - before
    assert grown < 20 * 1024 * 1024, "RSS grew by #{(grown / 1e6).round(1)} MB"
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
      end
    end
    run.call(5_000)
    GC.start
    before = rss_bytes
    run.call(100_000)
    GC.start
    assert rss_bytes - before < 10 * 1024 * 1024
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
