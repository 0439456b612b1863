#!/usr/bin/env ruby
# frozen_string_literal: true

# libfbe Ruby benchmark: the workloads of benchmarks/README.md — account (the
# reference README's Account, three orders), small (one string, bool, int32, double and
# timestamp) and large (1,000 int64 ids, 100 strings) — encoded and decoded by the fbe
# gem, side by side in one run with msgpack (Debian's ruby-msgpack) and the standard
# json library, for the same data (benchmarks/data/*.json, made with a fixed seed).
#
#   ruby bench.rb [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]
#
# Method (as benchmarks/python/bench.py): each operation runs in batches of about 2 ms; a
# run repeats whole batches for at least --min-time (default 0.2 s); the runs are
# interleaved in rounds (every figure once per round, so a slow spell of a shared machine
# hits all figures alike) and each figure is the median over the rounds (default 7) of
# the mean time per operation; spread_pct is (max - min) / median. --quick is 3 rounds of
# 0.05 s, for CI. --json prints one JSON object per line:
# {"lang":"ruby","impl":"libfbe|msgpack|json","workload":"account|small|large","model":...,
#  "op":"encode|decode|decode_trusted|verify","ns":<median>,"spread_pct":...,"size":...}
# (model: "standard" or "final" for libfbe, "hash" for msgpack and json). libfbe's decode
# is the default, verifying one; decode_trusted (trusted: true, without the verify) is
# measured beside it. Every implementation must round-trip the data before it is timed.
# The reference's pure-Ruby FBE published 43 us encode / 41 us decode for the Account.
require "json"
require "optparse"
require "fbe"

HERE = __dir__
DATA = File.expand_path("../data", HERE)
# workload -> [the .fbe file under the schemas directory, the struct]
WORKLOADS = { "account" => ["proto.fbe", :Account], "small" => ["bench/small.fbe", :Small],
              "large" => ["bench/large.fbe", :Large] }.freeze

def load_data
  WORKLOADS.keys.to_h { |w| [w, JSON.parse(File.read(File.join(DATA, "#{w}.json")), symbolize_names: true).freeze] }
end

def now_ns
  Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
end

# One measured operation: a lambda running the operation n times.
class Case
  attr_reader :impl, :workload, :model, :op, :size, :per_op

  def initialize(impl, workload, model, op, size, &loop)
    @impl, @workload, @model, @op, @size, @loop = impl, workload, model, op, size, loop
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

def libfbe_cases(schemas, workload, value)
  path, type = WORKLOADS[workload]
  file = File.join(schemas, path)
  s = FBE.load(file, include: [schemas, File.dirname(file)])
  cls = s[type]
  obj = cls.from_json(JSON.generate(value))
  [["standard", false], ["final", true]].flat_map do |model, final|
    data = obj.encode(final: final)
    back = cls.decode(data, final: final)
    unless JSON.parse(back.to_json, symbolize_names: true) == value && cls.verify(data, final: final) &&
           cls.decode(data, final: final, trusted: true) == back
      abort "bench: the libfbe #{workload} does not round trip"
    end
    abort "bench: the #{workload} as a Hash encodes differently" if s.encode(type, value, final: final) != data
    if final
      [Case.new("libfbe", workload, model, "encode", data.bytesize) { |n| n.times { obj.encode(final: true) } },
       Case.new("libfbe", workload, model, "decode", data.bytesize) { |n| n.times { cls.decode(data, final: true) } },
       Case.new("libfbe", workload, model, "decode_trusted", data.bytesize) do |n|
         n.times { cls.decode(data, final: true, trusted: true) }
       end,
       Case.new("libfbe", workload, model, "verify", data.bytesize) { |n| n.times { cls.verify(data, final: true) } }]
    else
      [Case.new("libfbe", workload, model, "encode", data.bytesize) { |n| n.times { obj.encode } },
       Case.new("libfbe", workload, model, "decode", data.bytesize) { |n| n.times { cls.decode(data) } },
       Case.new("libfbe", workload, model, "decode_trusted", data.bytesize) { |n| n.times { cls.decode(data, trusted: true) } },
       Case.new("libfbe", workload, model, "verify", data.bytesize) { |n| n.times { cls.verify(data) } }]
    end
  end
end

def msgpack_cases(workload, value)
  require "msgpack"
  data = MessagePack.pack(value)
  abort "bench: msgpack does not round trip #{workload}" if MessagePack.unpack(data, symbolize_keys: true) != value
  [Case.new("msgpack", workload, "hash", "encode", data.bytesize) { |n| n.times { MessagePack.pack(value) } },
   Case.new("msgpack", workload, "hash", "decode", data.bytesize) { |n| n.times { MessagePack.unpack(data) } }]
end

def json_cases(workload, value)
  text = JSON.generate(value)
  abort "bench: json does not round trip #{workload}" if JSON.parse(text, symbolize_names: true) != value
  [Case.new("json", workload, "hash", "encode", text.bytesize) { |n| n.times { JSON.generate(value) } },
   Case.new("json", workload, "hash", "decode", text.bytesize) { |n| n.times { JSON.parse(text) } }]
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

have_msgpack = begin
  require "msgpack"
  true
rescue LoadError => e
  abort "bench: msgpack is not installed (#{e.message}); apt-get install ruby-msgpack" if opts[:require_peers]
  warn "bench: msgpack not installed, skipped (apt-get install ruby-msgpack)"
  false
end
cases = load_data.flat_map do |workload, value|
  libfbe_cases(opts[:schemas], workload, value) + (have_msgpack ? msgpack_cases(workload, value) : []) +
    json_cases(workload, value)
end

cases.each(&:calibrate)
runs.times { cases.each { |c| c.run_once(min_time) } }

unless opts[:json]
  versions = ["Ruby #{RUBY_VERSION}", "fbe #{FBE::VERSION}", ("msgpack #{MessagePack::VERSION}" if defined?(MessagePack)),
              "json #{JSON::VERSION}"].compact.join(", ")
  puts "libfbe Ruby benchmark: account, small, large; median of #{runs} interleaved rounds " \
       "of >= #{format('%.2f', min_time)} s each (#{versions})"
  puts format("%-9s %-8s %-9s %-14s %6s %10s %8s %11s", "impl", "workload", "model", "op", "bytes", "ns/op", "spread",
              "vs msgpack")
end
peer = cases.select { |c| c.impl == "msgpack" }.to_h { |c| [[c.workload, c.op], c.result[0]] }
cases.each do |c|
  median, spread = c.result
  if opts[:json]
    puts JSON.generate(lang: "ruby", impl: c.impl, workload: c.workload, model: c.model, op: c.op,
                       ns: median.round(1), spread_pct: spread.round(1), size: c.size)
  else
    ratio = peer[[c.workload, c.op]] ? format("%.2fx", peer[[c.workload, c.op]] / median) : ""
    puts format("%-9s %-8s %-9s %-14s %6d %10.1f %7.1f%% %11s", c.impl, c.workload, c.model, c.op, c.size, median,
                spread, ratio)
  end
end
