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
# {"lang":"ruby","impl":"libfbe|libfbe-view|msgpack|json","workload":"account|small|large",
#  "model":...,"op":"encode|decode|decode_trusted|decode_all|verify","ns":<median>,
#  "spread_pct":...,"size":...,"rounds":[<ns per operation in each round>]}
# (model: "standard" or "final" for libfbe, "hash" for msgpack and json). libfbe's decode
# is the default, verifying one; decode_trusted (trusted: true, without the verify) is
# measured beside it. decode_all is decode plus reading every field once into Ruby values
# (READERS below, the same for everyone). libfbe-view is Cls.view(bytes, model:): its
# decode opens the view (verifying) and reads one field, its decode_all opens it and
# reads every field; it is skipped (a line "skipped: ..." on stderr) while the gem has no
# view. Every implementation must round-trip the data before it is timed. A round runs
# cell by cell (workload, then op), every implementation of a cell back to back.
# The reference's pure-Ruby FBE published 43 us encode / 41 us decode for the Account.
require "json"
require "optparse"
require "fbe"

HERE = __dir__
DATA = File.expand_path("../data", HERE)
# workload -> [the .fbe file under the schemas directory, the struct]
WORKLOADS = { "account" => ["proto.fbe", :Account], "small" => ["bench/small.fbe", :Small],
              "large" => ["bench/large.fbe", :Large] }.freeze

OPS = %w[encode decode decode_trusted decode_all verify].freeze # the order within a round

# ---- reading every field once (decode_all), one function per workload; get reads a
# field: ATTR for objects (libfbe's values and views), HASH for Hashes (msgpack, json).
# Returns the values, so setup can check them. Each implementation runs its own copy,
# compiled from this source (readers), so the VM's inline caches in a reader see one
# implementation's objects, as in a program that reads one kind.
ATTR = :attr
HASH = :hash
READERS = <<~'RUBY'
  get = { attr: ->(o, k) { o.public_send(k) }, hash: ->(o, k) { o[k.name] } }
  read = {
    "account" => lambda do |a, get|
      w = get.(a, :wallet)
      out = [get.(a, :id), get.(a, :name), get.(a, :state), get.(w, :currency), get.(w, :amount)]
      asset = get.(a, :asset)
      out << !asset.nil?
      out << get.(asset, :currency) << get.(asset, :amount) unless asset.nil?
      get.(a, :orders).each do |o|
        out << get.(o, :id) << get.(o, :symbol) << get.(o, :side) << get.(o, :type) << get.(o, :price) <<
          get.(o, :volume)
      end
      out
    end,
    "small" => ->(s, get) { [get.(s, :name), get.(s, :spouse), get.(s, :siblings), get.(s, :money), get.(s, :birthday)] },
    "large" => ->(l, get) { get.(l, :ids).to_a + get.(l, :names).to_a }
  }
  [read, get]
RUBY

# A fresh copy of the reader of workload and of the getter kind (ATTR or HASH).
def readers(workload, kind)
  read, get = eval(READERS, TOPLEVEL_BINDING.dup, "READERS") # rubocop:disable Security/Eval
  [read[workload], get[kind]]
end

# the one field libfbe-view's decode reads
READ_ONE = { "account" => ->(v) { v.id }, "small" => ->(v) { v.name }, "large" => ->(v) { v.ids.size } }.freeze

# A decode_all case: decode, then read every field; checked once against the data's fields.
def decode_all_case(impl, workload, model, size, expected, get, &decode)
  read, get = readers(workload, get)
  if read.(decode.call, get) != expected
    abort "bench: #{impl} #{model} #{workload}: decode_all reads other values than the data's"
  end
  Case.new(impl, workload, model, "decode_all", size) { |n| n.times { read.(decode.call, get) } }
end

$view_skipped = false

def view_cases(cls, workload, model, data, value)
  unless cls.respond_to?(:view)
    warn "skipped: libfbe-view (the fbe gem has no view yet)" unless $view_skipped
    $view_skipped = true
    return []
  end
  m = model.to_sym
  one = READ_ONE[workload]
  expected_one = workload == "large" ? value[:ids].size : value[workload == "account" ? :id : :name]
  if one.(cls.view(data, model: m)) != expected_one
    abort "bench: libfbe-view #{model} #{workload}: decode reads another value than the data's"
  end
  [Case.new("libfbe-view", workload, model, "decode", data.bytesize) { |n| n.times { one.(cls.view(data, model: m)) } },
   decode_all_case("libfbe-view", workload, model, data.bytesize, expected(workload, value), ATTR) do
     cls.view(data, model: m)
   end]
end

# read_all of the data itself (a Hash with symbol keys), as every decode_all must give it
def expected(workload, value)
  readers(workload, ATTR)[0].(value, ->(o, k) { o[k] })
end

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
    decode = final ? -> { cls.decode(data, final: true) } : -> { cls.decode(data) } # as the decode case calls it
    extra = [decode_all_case("libfbe", workload, model, data.bytesize, expected(workload, value), ATTR, &decode)] +
            view_cases(cls, workload, model, data, value)
    base = if final
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
    base + extra
  end
end

def msgpack_cases(workload, value)
  require "msgpack"
  data = MessagePack.pack(value)
  abort "bench: msgpack does not round trip #{workload}" if MessagePack.unpack(data, symbolize_keys: true) != value
  [Case.new("msgpack", workload, "hash", "encode", data.bytesize) { |n| n.times { MessagePack.pack(value) } },
   Case.new("msgpack", workload, "hash", "decode", data.bytesize) { |n| n.times { MessagePack.unpack(data) } },
   decode_all_case("msgpack", workload, "hash", data.bytesize, expected(workload, value), HASH) do
     MessagePack.unpack(data)
   end]
end

def json_cases(workload, value)
  text = JSON.generate(value)
  abort "bench: json does not round trip #{workload}" if JSON.parse(text, symbolize_names: true) != value
  [Case.new("json", workload, "hash", "encode", text.bytesize) { |n| n.times { JSON.generate(value) } },
   Case.new("json", workload, "hash", "decode", text.bytesize) { |n| n.times { JSON.parse(text) } },
   decode_all_case("json", workload, "hash", text.bytesize, expected(workload, value), HASH) { JSON.parse(text) }]
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

names = WORKLOADS.keys
schedule = cases.sort_by.with_index { |c, i| [names.index(c.workload), OPS.index(c.op), i] }
schedule.each(&:calibrate)
# every other round backwards, so a drift within a cell cancels out
runs.times { |r| (r.even? ? schedule : schedule.reverse).each { |c| c.run_once(min_time) } }

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
                       ns: median.round(1), spread_pct: spread.round(1), size: c.size,
                       rounds: c.per_op.map { |x| x.round(2) })
  else
    ratio = peer[[c.workload, c.op]] ? format("%.2fx", peer[[c.workload, c.op]] / median) : ""
    puts format("%-9s %-8s %-9s %-14s %6d %10.1f %7.1f%% %11s", c.impl, c.workload, c.model, c.op, c.size, median,
                spread, ratio)
  end
end
