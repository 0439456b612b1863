# frozen_string_literal: true

# The Ruby driver of the hostile suite (tests/hostile/README.md): runs ONE operation with
# the default limits and prints one JSON line, {"result":"ok","detail":...} or
# {"result":"error","type":class,"status":the core's status or null,"message":...}.
#
#   ruby -I GEM_LIB driver.rb OP SCHEMA TYPE INPUT [final]   (the operations of driver.py)
require "fbe"
require "json"

CHUNK = 65_536

# levels bodies linked by `next`, built from the innermost out (no recursion).
def build_chain(cls, levels)
  value = cls.new(v: levels - 1)
  (levels - 2).downto(0) { |i| value = cls.new(v: i, next: value) }
  value
end

def run(op, schema_path, type_name, input, final)
  if op == "load"
    FBE.load(input)
    return "loaded"
  end
  schema = FBE.load(schema_path)
  cls = op == "receive" ? nil : schema[type_name]
  case op
  when "encode_chain" then return "#{build_chain(cls, Integer(input)).encode.bytesize} bytes"
  when "deep_hash" then return "hash #{build_chain(cls, Integer(input)).hash}"
  when "deep_eq" then return "equal #{build_chain(cls, Integer(input)) == build_chain(cls, Integer(input))}"
  when "deep_repr" then return "#{build_chain(cls, Integer(input)).inspect.size} characters"
  when "deep_json" then return "#{build_chain(cls, Integer(input)).to_json.size} characters"
  end
  data = File.binread(input)
  case op
  when "decode"
    cls.decode(data, final: final)
    "decoded"
  when "verify" then "model size #{cls.verify!(data, final: final)}"
  when "reencode"
    again = cls.decode(data, final: final).encode(final: final)
    raise "re-encoding gave other bytes (#{again.bytesize}, not #{data.bytesize})" unless again == data

    "same #{again.bytesize} bytes"
  when "from_json"
    cls.from_json(data.force_encoding(Encoding::UTF_8))
    "read"
  when "receive"
    count = 0
    receiver = FBE::Receiver.new(schema, package: type_name, final: final) { count += 1 }
    (0...data.bytesize).step(CHUNK) { |at| receiver.feed(data.byteslice(at, CHUNK)) }
    "#{count} messages, #{receiver.pending} bytes pending"
  else raise "unknown op #{op}"
  end
end

op, schema_path, type_name, input, flag = ARGV
line = begin
  { result: "ok", detail: run(op, schema_path, type_name, input, flag == "final") }
rescue StandardError, SystemStackError, NoMemoryError => e
  { result: "error", type: e.class.name, status: e.respond_to?(:status) ? e.status : nil, message: e.message }
end
$stdout.write("#{JSON.generate(line)}\n")
