#!/usr/bin/env ruby
# frozen_string_literal: true

# libfbe Ruby benchmark: proto.Account (the reference README's value, three orders)
# encoded and decoded by the fbe gem, side by side in one run with msgpack (Debian's
# ruby-msgpack) and the standard json library, for the same data.
#
#   ruby bench.rb [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]
#
# Method (as benchmarks/python/bench.py): each operation runs in batches of about 2 ms; a
# run repeats whole batches for at least --min-time (default 0.2 s); the runs are
# interleaved in rounds (every figure once per round, so a slow spell of a shared machine
# hits all figures alike) and each figure is the median over the rounds (default 7) of
# the mean time per operation; spread_pct is (max - min) / median. --quick is 3 rounds of
# 0.05 s, for CI. --json prints one JSON object per line:
# {"lang":"ruby","impl":"libfbe|msgpack|json","workload":"account","model":...,
#  "op":"encode|decode|verify","ns":<median>,"spread_pct":...,"size":...}
# (model: "standard" or "final" for libfbe, "hash" for msgpack and json).
# The reference's pure-Ruby FBE published 43 us encode / 41 us decode for this Account.
require "json"
require "optparse"
require "fbe"

HERE = __dir__
ACCOUNT = {
  id: 1, name: "Test", state: 6,
  wallet: { currency: "USD", amount: 1000.0 },
  asset: { currency: "EUR", amount: 100.0 },
  orders: [
    { id: 1, symbol: "EURUSD", side: 0, type: 0, price: 1.23456, volume: 1000.0 },
    { id: 2, symbol: "EURUSD", side: 1, type: 1, price: 1.0, volume: 100.0 },
    { id: 3, symbol: "EURUSD", side: 0, type: 2, price: 1.5, volume: 10.0 }
  ]
}.freeze

def now_ns
  Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
end

# One measured operation: a lambda running the operation n times.
class Case
  attr_reader :impl, :model, :op, :size, :per_op

  def initialize(impl, model, op, size, &loop)
    @impl, @model, @op, @size, @loop = impl, model, op, size, loop
    @batch = 1
    @per_op = []
  end

  def calibrate
    batch = 1
    loop do
      t0 = now_ns
      @loop.call(batch)
      break if now_ns - t0 >= 2_000_000 || batch >= 1 << 30

      batch *= 2
    end
    @batch = batch
  end

  def run_once(min_time)
    iterations = 0
    t0 = now_ns
    deadline = min_time * 1e9
    elapsed = 0
    while elapsed < deadline
      @loop.call(@batch)
      iterations += @batch
      elapsed = now_ns - t0
    end
    @per_op << elapsed.fdiv(iterations)
  end

  def result
    xs = @per_op.sort
    n = xs.size
    median = n.odd? ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2
    [median, (xs[-1] - xs[0]) / median * 100.0]
  end
end

def libfbe_cases(schemas)
  s = FBE.load(File.join(schemas, "proto.fbe"), include: [schemas])
  acc = s::Account.new(
    id: 1, name: "Test", state: s::State::GOOD,
    wallet: s::Balance.new(currency: "USD", amount: 1000.0),
    asset: s::Balance.new(currency: "EUR", amount: 100.0),
    orders: [s::Order.new(id: 1, symbol: "EURUSD", side: s::OrderSide::BUY, type: s::OrderType::MARKET,
                          price: 1.23456, volume: 1000.0),
             s::Order.new(id: 2, symbol: "EURUSD", side: s::OrderSide::SELL, type: s::OrderType::LIMIT,
                          price: 1.0, volume: 100.0),
             s::Order.new(id: 3, symbol: "EURUSD", side: s::OrderSide::BUY, type: s::OrderType::STOP,
                          price: 1.5, volume: 10.0)]
  )
  account = s::Account
  [["standard", false], ["final", true]].flat_map do |model, final|
    data = acc.encode(final: final)
    back = account.decode(data, final: final)
    abort "bench: the libfbe Account does not round trip" if back.to_json != acc.to_json || !account.verify(data, final: final)
    abort "bench: the Account as a Hash encodes differently" if s.encode(:Account, ACCOUNT, final: final) != data
    if final
      [Case.new("libfbe", model, "encode", data.bytesize) { |n| n.times { acc.encode(final: true) } },
       Case.new("libfbe", model, "decode", data.bytesize) { |n| n.times { account.decode(data, final: true) } },
       Case.new("libfbe", model, "verify", data.bytesize) { |n| n.times { account.verify(data, final: true) } }]
    else
      [Case.new("libfbe", model, "encode", data.bytesize) { |n| n.times { acc.encode } },
       Case.new("libfbe", model, "decode", data.bytesize) { |n| n.times { account.decode(data) } },
       Case.new("libfbe", model, "verify", data.bytesize) { |n| n.times { account.verify(data) } }]
    end
  end
end

def msgpack_cases
  require "msgpack"
  data = MessagePack.pack(ACCOUNT)
  abort "bench: msgpack does not round trip" if MessagePack.unpack(data, symbolize_keys: true) != ACCOUNT
  [Case.new("msgpack", "hash", "encode", data.bytesize) { |n| n.times { MessagePack.pack(ACCOUNT) } },
   Case.new("msgpack", "hash", "decode", data.bytesize) { |n| n.times { MessagePack.unpack(data) } }]
end

def json_cases
  text = JSON.generate(ACCOUNT)
  abort "bench: json does not round trip" if JSON.parse(text, symbolize_names: true) != ACCOUNT
  [Case.new("json", "hash", "encode", text.bytesize) { |n| n.times { JSON.generate(ACCOUNT) } },
   Case.new("json", "hash", "decode", text.bytesize) { |n| n.times { JSON.parse(text) } }]
end

opts = { quick: false, json: false, runs: nil, min_time: nil, schemas: File.expand_path("../../schemas", HERE),
         require_peers: false }
OptionParser.new do |o|
  o.banner = "usage: ruby bench.rb [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]"
  o.on("--quick", "3 rounds of at least 0.05 s (for CI)") { opts[:quick] = true }
  o.on("--json", "one JSON object per figure") { opts[:json] = true }
  o.on("--runs N", Integer, "rounds (default 7)") { |v| opts[:runs] = v }
  o.on("--min-time S", Float, "seconds per run (default 0.2)") { |v| opts[:min_time] = v }
  o.on("-I DIR", "the schemas directory") { |v| opts[:schemas] = v }
  o.on("--require-peers", "fail when msgpack is missing") { opts[:require_peers] = true }
end.parse!
runs = opts[:runs] || (opts[:quick] ? 3 : 7)
min_time = opts[:min_time] || (opts[:quick] ? 0.05 : 0.2)
abort "bench: --runs must be 1..100 and --min-time positive" unless (1..100).cover?(runs) && min_time.positive?

cases = libfbe_cases(opts[:schemas])
begin
  cases += msgpack_cases
rescue LoadError => e
  abort "bench: msgpack is not installed (#{e.message}); apt-get install ruby-msgpack" if opts[:require_peers]
  warn "bench: msgpack not installed, skipped (apt-get install ruby-msgpack)"
end
cases += json_cases

cases.each(&:calibrate)
runs.times { cases.each { |c| c.run_once(min_time) } }

unless opts[:json]
  versions = ["Ruby #{RUBY_VERSION}", "fbe #{FBE::VERSION}", ("msgpack #{MessagePack::VERSION}" if defined?(MessagePack)),
              "json #{JSON::VERSION}"].compact.join(", ")
  puts "libfbe Ruby benchmark: proto.Account (3 orders), median of #{runs} interleaved rounds " \
       "of >= #{format('%.2f', min_time)} s each (#{versions})"
  puts format("%-9s %-9s %-7s %6s %10s %8s %11s", "impl", "model", "op", "bytes", "ns/op", "spread", "vs msgpack")
end
peer = cases.select { |c| c.impl == "msgpack" }.to_h { |c| [c.op, c.result[0]] }
cases.each do |c|
  median, spread = c.result
  if opts[:json]
    puts JSON.generate(lang: "ruby", impl: c.impl, workload: "account", model: c.model, op: c.op,
                       ns: median.round(1), spread_pct: spread.round(1), size: c.size)
  else
    ratio = peer[c.op] ? format("%.2fx", peer[c.op] / median) : ""
    puts format("%-9s %-9s %-7s %6d %10.1f %7.1f%% %11s", c.impl, c.model, c.op, c.size, median, spread, ratio)
  end
end
