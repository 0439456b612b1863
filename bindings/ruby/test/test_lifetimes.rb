# frozen_string_literal: true

# Lifetimes (issue 17): a schema is never released under a call that uses it. Schema#close
# counts the calls in flight (encode, decode, verify, JSON, send, feed; the large ones
# run without the GVL, so another thread's close can come in the middle) and refuses
# with FBE::ArgumentError "the schema is in use by N calls" until they have returned.
require_relative "helper"

class TestLifetimes < Minitest::Test
  include Helper

  TEXT = "package life\nmessage R { int32 id; R2[] items; }\nstruct R2 { int64 a; string b; double? c; }\n"

  def big(schema, count)
    schema::R.new(id: 7, items: (0...count).map { |i| schema::R2.new(a: i, b: "b#{i}", c: i.odd? ? 0.5 : nil) })
  end

  # User code inside the call (here the #ord of the String a wchar field is given, which
  # the walk calls; it reads a value of another load of the schema by member, not by
  # accessor) closing the schema.
  def test_close_from_inside_a_call_is_refused
    s = FBE.load_string("package lifec\nmessage R { int32 id; R2[] items; wchar ch; }\nstruct R2 { int64 a; }\n")
    errors = []
    ch = +"ж"
    ch.define_singleton_method(:ord) do
      begin
        s.close
      rescue FBE::ArgumentError => e
        errors << e.message
      end
      super()
    end
    value = { id: 7, items: [{ a: 1 }, { a: 2 }, { a: 3 }], ch: ch }
    data = s.encode(:R, value)
    assert_equal ["the schema is in use by 1 call (close it once they have returned)"], errors
    assert_equal 3, s::R.decode(data).items.size
    s.to_json(:R, value)
    assert_equal 2, errors.size
    s.close # no call in flight: done
    assert s.closed?
    e = assert_raises(FBE::ArgumentError) { s::R.verify(data) }
    assert_includes e.message, "closed"
  end

  # verify, decode and encode of more than 64 KiB run without the GVL while this thread
  # closes: close is refused ("in use") or done; a call then raises "closed"; never a
  # crash, never a wrong answer.
  def test_close_while_other_threads_call
    data = big(FBE.load_string(TEXT), 20_000).encode
    assert_operator data.bytesize, :>, 64 * 1024
    refused = calls = 0
    40.times do
      s = FBE.load_string(TEXT)
      klass = s::R
      started = Queue.new
      users = Array.new(2) do |k|
        Thread.new do
          done = closed = 0
          10.times do |i|
            started << k if i == 1
            case (i + k) % 3
            when 0 then assert_equal data.bytesize, klass.verify!(data)
            when 1 then assert_equal 7, klass.decode(data).id
            else assert_equal data.bytesize, klass.decode(data).encode.bytesize
            end
            done += 1
          rescue FBE::ArgumentError => e
            assert_includes e.message, "closed"
            closed += 1
          end
          [done, closed]
        end
      end
      2.times { started.pop } # both are past their first call: close comes amid the others
      loop do
        s.close
        break
      rescue FBE::ArgumentError => e
        assert_match(/\Athe schema is in use by \d+ calls? /, e.message)
        refused += 1
        Thread.pass
      end
      calls += users.sum { |t| t.value.sum }
      assert s.closed?
    end
    assert_equal 40 * 2 * 10, calls
  end
end
