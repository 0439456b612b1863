# frozen_string_literal: true

# Request and response (issue 22, docs/CLIENT.md): FBE::Client over the core's
# fbe_client, FBE::Server, FBE::Proxy and the log hooks, over schemas/exchange.fbe and
# gateway.fbe. A request ends exactly once (response, reject, timeout, reset); what
# answers no pending request is a notification; refusals leave nothing pending. Most
# tests carry the bytes by hand and play the clock (clock: a lambda); the socket tests
# run real threads, with waits bounded far above what they need (no speed assertions).
require_relative "helper"
require "socket"
require "stringio"

class TestClient < Minitest::Test
  include Helper

  WAIT = 30 # seconds a future may take in the threaded tests (they take milliseconds)

  def ex
    Helper.schema("exchange")
  end

  def gw
    Helper.schema("gateway")
  end

  def uuid(n)
    format("00000000-0000-0000-0000-%012d", n)
  end

  def order(n, quantity: 10.0, symbol: "EURUSD")
    ex::NewOrder.new(id: uuid(n), symbol: symbol, quantity: quantity)
  end

  # A client and a server of schema in one process, the bytes in two Strings, the clock
  # scripted (@now).
  def pair(schema = ex, **options)
    @now = 0
    @to_server = String.new
    @to_client = String.new
    @notified = []
    client = FBE::Client.new(schema, @to_server, clock: -> { @now }, **options) { |m| @notified << m }
    server = FBE::Server.new(schema, @to_client)
    [client, server]
  end

  def deliver(from, to)
    to.feed(from.dup)
    from.clear
  end

  # ------------------------------------------------------------ responses and rejects

  def test_responses_rejects_and_requests_without_response
    client, server = pair
    server.on(ex::NewOrder) do |o|
      raise FBE::RejectedError, ex::Reject.new(reason: "too large") if o.quantity > 100

      ex::OrderAccepted.new(order: o.quantity.to_i)
    end
    server.on("CancelOrder") { |c| ex::UnknownOrder.new(order: c.order) } # a reject returned, by name
    accepted = client.request(order(1, quantity: 40))
    refused = client.request(order(2, quantity: 400))
    cancel = client.request(ex::CancelOrder.new(id: uuid(3), order: 77))
    beat = client.request(ex::Heartbeat.new(id: uuid(4)))
    assert beat.fulfilled? # no [response]: it ends as it is sent
    assert_nil beat.value
    assert_equal 3, client.pending
    refute accepted.resolved?
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal 0, client.pending

    assert_equal ex::OrderAccepted.new(id: uuid(1), order: 40), accepted.value!
    assert_equal :fulfilled, accepted.state
    e = assert_raises(FBE::RejectedError) { refused.value! }
    assert_equal ex::Reject.new(id: uuid(2), reason: "too large"), e.reject
    assert_equal %(Reject(id="#{uuid(2)}",reason="too large")), e.message
    assert_equal "FBE_ERR_REJECTED", e.status
    assert_kind_of FBE::Error, e
    assert_nil refused.value
    assert refused.failed?
    assert_equal ex::UnknownOrder.new(id: uuid(3), order: 77), cancel.error.reject
    assert_empty @notified
  end

  def test_global_reject_through_an_import
    client, server = pair(gw)
    server.on("QuoteRequest") { raise FBE::RejectedError, gw::Exchange::Reject.new(reason: "no quotes today") }
    server.on("exchange.NewOrder") { gw::Exchange::Reject.new(reason: "closed") }
    quote = client.request(gw::QuoteRequest.new(id: uuid(1), symbol: "EURUSD"))
    order = client.request(gw::Exchange::NewOrder.new(id: uuid(2)))
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal "no quotes today", quote.error.reject.reason
    assert_equal "exchange.Reject", quote.error.reject.class.fbe_name
    assert_equal "closed", order.error.reject.reason
    assert_equal :reject, FBE.reply_kind(gw::QuoteRequest, gw::Exchange::Reject)
    assert_equal :response, FBE.reply_kind(gw::QuoteRequest, gw::Quote)
    assert_nil FBE.reply_kind(gw::QuoteRequest, gw::Exchange::OrderAccepted)
  end

  def test_out_of_order_responses_and_the_block_form
    client, server = pair
    pending = []
    server.on(ex::NewOrder) { |o| pending << o && nil }
    ends = []
    futures = (1..5).map { |i| client.request(order(i)) { |value, error| ends << [i, value&.order, error] } }
    deliver(@to_server, server)
    [3, 1, 5, 2, 4].each { |i| server.reply(pending[i - 1], ex::OrderAccepted.new(order: 100 + i)) }
    @to_client.each_char.each_slice(7) { |piece| client.feed(piece.join) } # in pieces of 7 bytes
    assert_equal [3, 1, 5, 2, 4].map { |i| [i, 100 + i, nil] }, ends
    futures.each_with_index { |f, i| assert_equal uuid(i + 1), f.value.id }
  end

  def test_unknown_response_ids_are_notifications
    client, server = pair
    server.on(ex::NewOrder) { |o| ex::OrderAccepted.new(order: 1) }
    f = client.request(order(1))
    deliver(@to_server, server)
    late = ex::OrderAccepted.new(id: uuid(99), order: 2) # no pending request has its id
    server.send_message(late)
    server << ex::Trade.new(order: 1, symbol: "EURUSD")
    deliver(@to_client, client)
    assert_equal 1, f.value.order
    assert_equal [late, ex::Trade.new(order: 1, symbol: "EURUSD")], @notified
    # without a handler, feed returns them
    bytes = String.new
    FBE::Sender.new(ex, bytes) << late
    assert_equal [late], FBE::Client.new(ex, String.new).feed(bytes)
    # a response that comes after its request timed out is a notification too
    client.request(order(2), timeout: 0.000_001)
    client.watchdog(10_000)
    server.reply(order(2), ex::OrderAccepted.new(order: 3))
    deliver(@to_client, client)
    assert_equal ex::OrderAccepted.new(id: uuid(2), order: 3), @notified.last
  end

  # ------------------------------------------------------------ timeouts and reset

  def test_timeouts_on_the_scripted_clock
    client, = pair
    @now = 1000
    a = client.request(order(1), timeout: Rational(500, 1_000_000_000))
    b = client.request(order(2), timeout: Rational(100, 1_000_000_000))
    c = client.request(order(3))
    ended = []
    [a, b, c].each_with_index { |f, i| f.on_failure { ended << i } }
    assert_equal 1101, client.next_deadline # b started at 1001: requests made at one time count 1 ns apart
    assert_equal 0, client.watchdog(1100)
    assert_equal 1, client.watchdog(1101)
    e = assert_raises(FBE::TimeoutError) { b.value! }
    assert_equal "Timeout!", e.message
    assert_equal "FBE_ERR_TIMEOUT", e.status
    @now = 2000
    assert_equal 1, client.watchdog # the clock's now
    assert_equal [1, 0], ended
    assert a.error.is_a?(FBE::TimeoutError)
    assert_nil client.next_deadline # c has no timeout
    refute c.resolved?
    assert_equal 1, client.pending
  end

  def test_reset_ends_every_pending_request_oldest_first
    client, server = pair
    ended = []
    futures = (1..3).map { |i| client.request(order(i), timeout: 10) { |_, e| ended << [i, e.class, e.message] } }
    client.feed(@to_server.byteslice(0, 10)) # a partial frame (of the client's own bytes: any will do)
    client.reset
    assert_equal (1..3).map { |i| [i, FBE::ResetError, "Reset client!"] }, ended
    futures.each { |f| assert_equal "FBE_ERR_RESET", f.error.status }
    assert_equal 0, client.pending
    # the partial frame was dropped: the client goes on with whole frames
    server.on(ex::NewOrder) { ex::OrderAccepted.new(order: 9) }
    @to_server.clear
    f = client.request(order(1))
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal 9, f.value.order
  end

  # ------------------------------------------------------------ refusals

  def test_refusals_leave_nothing_pending_and_send_nothing
    client, = pair(max_pending: 2)
    e = assert_raises(FBE::TypeMismatchError) { client.request(ex::OrderAccepted.new(id: uuid(1))) }
    assert_match(/not a request/, e.message)
    client.request(order(1))
    sent = @to_server.bytesize
    e = assert_raises(FBE::ArgumentError) { client.request(ex::CancelOrder.new(id: uuid(1))) }
    assert_match(/already pending/, e.message)
    client.request(order(2))
    e = assert_raises(FBE::LimitError) { client.request(order(3)) }
    assert_match(/max_pending/, e.message)
    assert_equal 2, client.pending
    assert_equal sent + order(2).encode.bytesize, @to_server.bytesize
    assert_raises(FBE::TypeMismatchError) { client.request({ id: uuid(5) }) }
    assert_raises(FBE::TypeMismatchError) { client.request(proto::Order.new) }
    assert_raises(::ArgumentError) { client.request(order(4), timeout: -1) }
    assert_raises(::TypeError) { client.request(order(4), timeout: "1") }
    assert_raises(::ArgumentError) { client.request(order(4), timeout: Float::NAN) }
    assert_equal 2, client.pending
    other = FBE::Client.new(ex, String.new, clock: -> { 0 })
    [Float::INFINITY, 10**12, 0, nil].each_with_index { |t, i| other.request(order(10 + i), timeout: t) }
    assert_nil other.next_deadline # none of them times out
  end

  def test_a_sink_that_raises_refuses_the_request
    calls = 0
    client = FBE::Client.new(ex, ->(_bytes) { (calls += 1) == 2 ? raise(IOError, "broken pipe") : nil })
    client.request(order(1))
    e = assert_raises(IOError) { client.request(order(2)) }
    assert_equal "broken pipe", e.message
    assert_equal 1, client.pending # the second was not registered
    client.request(order(2)) # its id is free
    assert_equal 2, client.pending
  end

  def test_bad_frames_raise_and_the_pending_requests_stay
    client, server = pair
    server.on(ex::NewOrder) { ex::OrderAccepted.new(order: 1) }
    f = client.request(order(1))
    e = assert_raises(FBE::MalformedError) { client.feed(["03000000"].pack("H*")) }
    assert_match(/frame size 3/, e.message)
    assert_raises(FBE::LimitError) { client.feed(["ffffff7f"].pack("H*")) }
    assert_equal 1, client.pending
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal 1, f.value.order
  end

  # A socket whose peer is gone: the send raises the IO's error (at once, or once the
  # queued bytes are written), the client resets (no answer can come any more) and every
  # later request is refused with that error.
  def test_a_broken_socket_resets_the_client
    a, b = UNIXSocket.pair
    client = FBE::Client.new(ex, a)
    waiting = client.request(order(1))
    b.close
    assert_raises(Errno::EPIPE) { client.request(order(2, symbol: "x" * 100_000)) }
    assert_kind_of FBE::ResetError, waiting.error(WAIT)
    assert_raises(Errno::EPIPE) { client.request(order(3)) }
    assert_equal 0, client.pending
  ensure
    [a, b].each { |s| s&.close unless s&.closed? }
  end

  # ------------------------------------------------------------ futures

  def test_future_then_rescue_and_callbacks
    client, server = pair
    server.on(ex::NewOrder) { |o| o.quantity > 100 ? ex::Reject.new(reason: "no") : ex::OrderAccepted.new(order: 5) }
    good = client.request(order(1))
    bad = client.request(order(2, quantity: 500))
    doubled = good.then { |accepted| accepted.order * 2 }
    reasons = bad.then { flunk "not called" }.rescue { |error| error.reject.reason }
    broken = good.then { raise "oops" }
    refute doubled.resolved?
    assert_nil doubled.value(0.01) # a wait that times out
    refute doubled.wait(0)
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal 10, doubled.value!
    assert_equal "no", reasons.value!
    assert_equal "oops", broken.error.message
    assert doubled.wait(0)
    seen = []
    good.on_complete { |v, e| seen << [v.order, e] } # resolved: runs at once
    good.on_success { |v| seen << v.order }.on_failure { flunk "not called" }
    assert_equal [[5, nil], 5], seen
    assert_match(/fulfilled/, good.inspect)
    assert_equal order(1), good.request
  end

  # A callback that raises: every future of the feed still ends, then its exception goes
  # to the caller of feed.
  def test_a_raising_callback_does_not_stop_the_others
    client, server = pair
    server.on(ex::NewOrder) { ex::OrderAccepted.new(order: 1) }
    a = client.request(order(1)) { raise "callback" }
    b = client.request(order(2))
    deliver(@to_server, server)
    e = assert_raises(RuntimeError) { deliver(@to_client, client) }
    assert_equal "callback", e.message
    assert a.fulfilled?
    assert b.fulfilled?
  end

  # Callbacks run outside the client's lock: they may make requests.
  def test_callbacks_may_call_the_client
    client, server = pair
    server.on(ex::NewOrder) { |o| ex::OrderAccepted.new(order: o.quantity.to_i) }
    chained = []
    client.request(order(1, quantity: 1)) { |v, _| chained << client.request(order(2, quantity: v.order + 1)) }
    client.on_notify { |m| chained << client.request(order(3, quantity: m.order)) }
    deliver(@to_server, server)
    server << ex::Trade.new(order: 3)
    deliver(@to_client, client)
    assert_equal 2, chained.size
    deliver(@to_server, server)
    deliver(@to_client, client)
    assert_equal [2, 3], chained.map { |f| f.value!.order }
  end

  # A sink that hands the bytes straight to an in-process server: the response comes
  # back inside the send (the request is registered before it is sent).
  def test_a_loopback_answers_inside_the_send
    server = nil
    client = FBE::Client.new(ex, ->(bytes) { server.feed(bytes) })
    server = FBE::Server.new(ex, ->(bytes) { client.feed(bytes) })
    server.on(ex::NewOrder) { |o| ex::OrderAccepted.new(order: o.quantity.to_i) }
    f = client.request(order(1, quantity: 1))
    assert f.resolved?
    assert_equal 1, f.value!.order
    assert_equal 0, client.pending
  end

  # ------------------------------------------------------------ server

  def test_server_handlers
    client, server = pair
    server.on(ex::NewOrder) { |o| o.symbol == "NONE" ? nil : :oops }
    seen = []
    server.on { |m| seen << m && nil } # every other message
    client.request(order(1, symbol: "NONE"))
    client.request(order(2))
    client.send_message(ex::Trade.new(order: 5))
    e = assert_raises(FBE::TypeMismatchError) { server.feed(@to_server) }
    assert_match(/returned Symbol/, e.message)
    assert_empty seen
    server.feed("".b) # the bytes after the message whose handler raised: at the next feed
    assert_equal [ex::Trade.new(order: 5)], seen
    assert_empty @to_client
    # a reply that answers nothing the request asks for
    e = assert_raises(FBE::TypeMismatchError) { server.reply(order(1), ex::OrderCancelled.new) }
    assert_equal "exchange.OrderCancelled is not the response or a reject of request exchange.NewOrder", e.message
    assert_raises(FBE::TypeMismatchError) { server.reply(ex::Trade.new, ex::OrderAccepted.new) }
    assert_raises(FBE::NotFoundError) { server.on("Nope") { nil } }
    # the reply object itself keeps its id; what is sent has the request's
    reply = ex::OrderAccepted.new(id: uuid(42), order: 1)
    server.reply(order(7), reply)
    assert_equal uuid(42), reply.id
    assert_equal uuid(7), ex::OrderAccepted.decode(@to_client).id
    # FBE::Sender#reply is the same rule for a plain sender
    out = String.new
    FBE::Sender.new(ex, out).reply(order(8), ex::Reject.new(reason: "x"))
    assert_equal uuid(8), ex::Reject.decode(out).id
  end

  # ------------------------------------------------------------ proxy

  def test_proxy_forwards_a_stream_byte_for_byte
    [false, true].each do |final|
      stream = String.new
      sender = FBE::Sender.new(gw, stream, final: final)
      sender << gw::QuoteRequest.new(id: uuid(1), symbol: "EURUSD")
      sender << gw::Exchange::NewOrder.new(id: uuid(2), symbol: "GBPUSD")
      other = FBE.load_string("package other offset 500\nmessage X { int32 a; }\n")
      FBE::Sender.new(other, stream, final: final) << other::X.new(a: 1) # a type id gateway does not know
      forwarded = String.new
      types = []
      proxy = FBE::Proxy.new(gw, final: final, verify: true) do |frame|
        types << [frame.type_id, frame.type&.fbe_name]
        forwarded << frame.data
      end
      stream.each_char.each_slice(5) { |piece| proxy.feed(piece.join) }
      assert_equal stream, forwarded
      assert_equal [[gw::QuoteRequest.type_id, "gateway.QuoteRequest"], [2, "exchange.NewOrder"],
                    [other::X.type_id, nil]], types
      assert_equal 0, proxy.pending
      # without a handler: feed returns the frames, each decodes as its type
      frames = FBE::Proxy.new(gw, final: final).feed(stream)
      assert_equal [true, true, false], frames.map(&:known?)
      assert_equal "EURUSD", frames[0].type.decode(frames[0].data, final: final).symbol
      # each over an IO
      assert_equal 3, FBE::Proxy.new(gw, final: final).each(StringIO.new(stream)).count
    end
    proxy = FBE::Proxy.new(gw, verify: true)
    e = assert_raises(FBE::MalformedError) { proxy.feed(["03000000"].pack("H*")) }
    assert_equal [], e.received
  end

  # A proxy between a client and a server, in a thread of its own: client -> pipe ->
  # proxy -> pipe -> server, the answers straight back. What it forwards is what the
  # client sent, byte for byte, and every request is answered.
  def test_a_proxy_piping_a_stream
    to_proxy_r, to_proxy_w = IO.pipe
    to_server_r, to_server_w = IO.pipe
    a, b = UNIXSocket.pair
    sent = String.new
    client = FBE::Client.new(ex, ->(bytes) { sent << bytes; to_proxy_w.write(bytes) })
    client_reader = client.start(a)
    forwarded = String.new
    proxy = FBE::Proxy.new(ex, verify: true) do |frame|
      forwarded << frame.data
      to_server_w.write(frame.data)
    end
    proxy_thread = proxy.start(to_proxy_r)
    server = FBE::Server.new(ex, b)
    server.on(ex::NewOrder) { |o| ex::OrderAccepted.new(order: o.quantity.to_i) }
    server_thread = server.start(to_server_r)
    futures = (1..100).map { |i| client.request(order(i, quantity: i)) }
    futures.each_with_index { |f, i| assert_equal i + 1, f.value!(WAIT).order }
    to_proxy_w.close
    proxy_thread.join(WAIT)
    to_server_w.close
    server_thread.join(WAIT)
    assert_equal sent, forwarded
    assert_equal 100, proxy.received + proxy.skipped
    b.close
    client_reader.join(WAIT)
  ensure
    [to_proxy_r, to_proxy_w, to_server_r, to_server_w, a, b].each { |io| io&.close unless io&.closed? }
  end

  # ------------------------------------------------------------ logging

  def test_log_hooks_with_the_text_form
    client, server = pair
    lines = []
    client.on_send_log { |t| lines << "client send #{t}" }.on_receive_log { |t| lines << "client receive #{t}" }
    server.on_send_log { |t| lines << "server send #{t}" }.on_receive_log { |t| lines << "server receive #{t}" }
    server.on(ex::NewOrder) { ex::OrderAccepted.new(order: 7) }
    client.request(order(1))
    deliver(@to_server, server)
    deliver(@to_client, client)
    text = %(NewOrder(id="#{uuid(1)}",symbol="EURUSD",side=buy,price=0.0,quantity=10.0))
    answer = %(OrderAccepted(id="#{uuid(1)}",order=7))
    assert_equal ["client send #{text}", "server receive #{text}", "server send #{answer}", "client receive #{answer}"],
                 lines
    client.on_send_log # off
    client.request(order(2))
    assert_equal 4, lines.size
    # plain senders and receivers
    sent = []
    got = []
    out = String.new
    FBE::Sender.new(ex, out).on_log { |t| sent << t }.send_message(ex::Trade.new(order: 3))
    FBE::Receiver.new(ex).on_log { |t| got << t }.feed(out)
    assert_equal ['Trade(order=3,symbol="",price=0.0,quantity=0.0)'], sent
    assert_equal sent, got
    # a log hook that raises stops the send: nothing leaves
    out.clear
    sender = FBE::Sender.new(ex, out).on_log { raise "log" }
    assert_raises(RuntimeError) { sender << ex::Trade.new }
    assert_empty out
  end

  # ------------------------------------------------------------ real streams

  # A client and a server over a socket pair, each with its reader thread: every future
  # of n requests (from several threads at once) checked.
  def round_trip(a, b, threads:, per_thread:)
    server = FBE::Server.new(ex, b)
    server.on(ex::NewOrder) do |o|
      raise FBE::RejectedError, ex::Reject.new(reason: "odd #{o.quantity.to_i}") if o.quantity.to_i.odd?

      ex::OrderAccepted.new(order: o.quantity.to_i)
    end
    server_thread = server.start
    trades = Queue.new
    client = FBE::Client.new(ex, a) { |m| trades << m }
    reader = client.start
    results = Array.new(threads) do |t|
      Thread.new do
        (0...per_thread).map do |i|
          n = t * per_thread + i
          [n, client.request(ex::NewOrder.new(symbol: "S#{n}", quantity: n), timeout: 600)]
        end
      end
    end.flat_map(&:value)
    server << ex::Trade.new(order: 1, symbol: "done")
    results.each do |n, f|
      assert f.wait(WAIT), "request #{n} did not end"
      if n.odd?
        assert_equal "odd #{n}", f.error.reject.reason
        assert_equal f.request.id, f.error.reject.id
      else
        assert_equal n, f.value.order
        assert_equal f.request.id, f.value.id
      end
    end
    assert_equal "done", trades.pop.symbol
    assert_equal 0, client.pending
    a.close_write
    assert_nil server_thread.join(WAIT)&.value
    b.close
    reader.join(WAIT)
    refute reader.alive?
    client
  end

  def test_socket_round_trip_of_a_thousand_requests
    a, b = UNIXSocket.pair
    round_trip(a, b, threads: 1, per_thread: 1000)
  ensure
    [a, b].each { |s| s&.close unless s&.closed? }
  end

  def test_requests_from_several_threads_at_once
    a, b = UNIXSocket.pair
    round_trip(a, b, threads: 4, per_thread: 250)
  ensure
    [a, b].each { |s| s&.close unless s&.closed? }
  end

  def test_tcp_round_trip
    listener = TCPServer.new("127.0.0.1", 0)
    a = TCPSocket.new("127.0.0.1", listener.addr[1])
    b = listener.accept
    round_trip(a, b, threads: 2, per_thread: 50)
  ensure
    [a, b, listener].each { |s| s&.close unless s&.closed? }
  end

  # Large frames both ways, more than the sockets hold, while the reader thread's own
  # callbacks send too: the reader never waits for a full socket (it would stop the
  # peer, which waits for it to read), so every request ends.
  def test_full_sockets_in_both_directions_never_deadlock
    a, b = UNIXSocket.pair
    big = "x" * 32_768
    server = FBE::Server.new(ex, b)
    server.on(ex::NewOrder) { |o| ex::Reject.new(reason: o.symbol) }
    server_thread = server.start
    client = FBE::Client.new(ex, a)
    reader = client.start
    chained = Queue.new
    firsts = Array.new(150) do |i|
      client.request(ex::NewOrder.new(symbol: big + i.to_s)) do |_, error|
        chained << client.request(ex::NewOrder.new(symbol: error.reject.reason + "!")) # from the reader thread
      end
    end
    firsts.each_with_index { |f, i| assert_equal big + i.to_s, f.error(WAIT).reject.reason }
    seconds = Array.new(150) { chained.pop }
    seconds.each { |f| assert f.error(WAIT).reject.reason.end_with?("!") }
    a.close_write
    server_thread.join(WAIT)
    b.close
    reader.join(WAIT)
    refute reader.alive?
  ensure
    [a, b].each { |s| s&.close unless s&.closed? }
  end

  # Pipes: a reader loop that ends at EOF resets the client (no answer can come), so no
  # future waits for ever; each yields the notifications.
  def test_pipes_each_and_the_end_of_the_stream
    down_r, down_w = IO.pipe
    up_r, up_w = IO.pipe
    client = FBE::Client.new(ex, up_w)
    f = client.request(order(1))
    server = FBE::Server.new(ex, down_w)
    server.on(ex::NewOrder) { ex::OrderAccepted.new(order: 1) }
    server.feed(up_r.readpartial(4096))
    server << ex::Trade.new(order: 2)
    server << ex::Trade.new(order: 3)
    pending = client.request(order(2))
    down_w.close
    seen = client.each(down_r).map(&:order)
    assert_equal [2, 3], seen
    assert_equal 1, f.value.order
    assert_kind_of FBE::ResetError, pending.error(WAIT)
    # Receiver#each
    out = String.new
    FBE::Sender.new(ex, out) << ex::Trade.new(order: 4) << ex::Trade.new(order: 5)
    assert_equal [4, 5], FBE::Receiver.new(ex).each(StringIO.new(out)).map(&:order)
    assert_raises(::ArgumentError) { FBE::Receiver.new(ex) { nil }.each(StringIO.new(out)) {} }
  ensure
    [down_r, down_w, up_r, up_w].each { |io| io&.close unless io&.closed? }
  end

  # The watchdog thread of a real clock: a request that nobody answers ends with
  # TimeoutError after its timeout (bounded only from above: never a speed assertion).
  def test_real_timeouts_end_by_the_watchdog_thread
    client = FBE::Client.new(ex, String.new)
    short = client.request(order(1), timeout: 0.02)
    long = client.request(order(2), timeout: 3600)
    e = assert_raises(FBE::TimeoutError) { short.value!(WAIT) }
    assert_equal "Timeout!", e.message
    refute long.resolved?
    sooner = client.request(order(3), timeout: 0.01) # wakes the sleeping watchdog earlier
    assert_kind_of FBE::TimeoutError, sooner.error(WAIT)
    client.close
    assert_kind_of FBE::ResetError, long.error(0)
  end

  # ------------------------------------------------------------ lifetimes

  def test_close_while_requests_pend
    client, = pair
    futures = (1..3).map { |i| client.request(order(i)) }
    client.close
    futures.each { |f| assert_equal "Reset client!", f.error(0).message }
    assert client.closed?
    e = assert_raises(FBE::ArgumentError) { client.request(order(4)) }
    assert_equal "the client is closed", e.message
    assert_raises(FBE::ArgumentError) { client.feed("") }
    assert_raises(FBE::ArgumentError) { client.pending }
    client.close # again: nothing
  end

  # A close from inside a call of the client (its sink) is refused; once the call
  # returned, it closes.
  def test_close_from_inside_a_call_is_refused
    refused = []
    client = nil
    client = FBE::Client.new(ex, lambda do |_bytes|
      client.close
    rescue FBE::ArgumentError => e
      refused << e.message
    end)
    f = client.request(order(1))
    assert_equal ["the client is in use by 1 call (close it once they have returned)"], refused
    client.close
    assert_kind_of FBE::ResetError, f.error(0)
  end

  # Another thread's close waits for the call in progress (a sink blocked on a queue).
  def test_close_from_another_thread_waits_for_the_call
    entered = Queue.new
    go = Queue.new
    client = FBE::Client.new(ex, lambda do |_bytes|
      entered << 1
      go.pop
    end)
    requester = Thread.new { client.request(order(1)) }
    entered.pop
    closer = Thread.new { client.close }
    assert_nil closer.join(0.05) # waiting for the lock the request holds
    go << 1
    future = requester.value
    closer.join(WAIT)
    assert client.closed?
    assert_kind_of FBE::ResetError, future.error(0)
  end

  # Clients dropped with requests pending are freed by the GC (their pending requests
  # dropped): never a crash. Closing the schema under a client refuses what needs it.
  def test_gc_and_schema_close_under_clients
    s = FBE.load_package("exchange", include: [Helper::SCHEMAS])
    200.times do |i|
      c = FBE::Client.new(s, String.new)
      c.request(s::NewOrder.new(id: uuid(i)))
    end
    GC.start
    client = FBE::Client.new(s, String.new)
    f = client.request(s::NewOrder.new)
    s.close
    assert_raises(FBE::ArgumentError) { client.request(s::NewOrder.new) }
    assert_raises(FBE::ArgumentError) { client.feed("") }
    assert_equal 1, client.watchdog(0) + client.pending # what needs no schema still works
    client.close
    assert_kind_of FBE::ResetError, f.error(0)
  end

  # The core's memory (an exact count) is back where it was after thousands of cycles:
  # requests answered, rejected, timed out and reset, clients closed or dropped to the GC
  # with requests pending, proxies and log hooks.
  def test_cycles_leave_the_core_memory_where_it_was
    cycles = lambda do |n|
      Thread.new do # (nothing it made stays on the main thread's stack)
        client, server = pair
        client.on_send_log { |_| nil }.on_receive_log { |_| nil }
        server.on(ex::NewOrder) { |o| o.quantity > 100 ? ex::Reject.new(reason: "no") : ex::OrderAccepted.new }
        proxy = FBE::Proxy.new(ex, verify: true) { |_| nil }
        n.times do |i|
          client.request(order(1, quantity: i.odd? ? 500 : 5))
          client.request(order(2), timeout: 1)
          client.request(order(3))
          proxy.feed(@to_server)
          deliver(@to_server, server)
          deliver(@to_client, client)
          client.watchdog(@now += 2 * FBE::Client::NS) # order 2 times out
          client.reset
        end
        client.close
        FBE::Client.new(ex, String.new).request(order(4)) # dropped with a request pending
      end.join
      GC.start(full_mark: true, immediate_sweep: true)
      FBE::Core.memory_in_use
    end
    cycles.call(10)
    before = cycles.call(10)
    assert_equal before, cycles.call(3000)
  end

  def test_send_is_send_message_for_messages_only
    client, = pair
    client.send(ex::Trade.new(order: 1))
    assert_equal ex::Trade.new(order: 1).encode.bytesize, @to_server.bytesize
    assert_equal 0, client.send(:pending) # Object#send otherwise
    assert_equal ex.client(String.new).class, FBE::Client
    assert_raises(::TypeError) { client.dup }
    assert_raises(::TypeError) { ex.server(String.new).clone }
    assert_raises(::TypeError) { ex.proxy.dup }
  end
end
