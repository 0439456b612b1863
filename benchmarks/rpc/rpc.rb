#!/usr/bin/env ruby
# frozen_string_literal: true

# The request/response benchmark's Ruby side (benchmarks/rpc/README.md): a server or a
# client of schemas/exchange.fbe over a TCP loopback socket, on FBE::Server / FBE::Client.
#   ruby rpc.rb server PORT_FILE        listens on a free loopback port, writes it to
#                                       PORT_FILE, serves until the client closes
#   ruby rpc.rb client PORT N WINDOW    N NewOrder requests, WINDOW in flight; checks
#                                       every one; prints {"requests":N,"seconds":S,"ok":true}
# The server's rule, the same in every language: a NewOrder of quantity q is accepted
# with order = q, unless q is a multiple of 10, which is rejected with reason "q".
require "fbe"
require "socket"

schemas = ENV.fetch("FBE_SCHEMAS", File.expand_path("../../schemas", __dir__))
schema = FBE.load(File.join(schemas, "exchange.fbe"), include: [schemas])
role, a, b, c = ARGV

case role
when "server"
  listener = TCPServer.new("127.0.0.1", 0)
  File.write(a, "#{listener.addr[1]}\n")
  socket = listener.accept
  socket.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
  server = FBE::Server.new(schema, socket)
  server.on(schema::NewOrder) do |order|
    q = order.quantity.to_i
    raise FBE::RejectedError, schema::Reject.new(reason: q.to_s) if (q % 10).zero?

    schema::OrderAccepted.new(order: q)
  end
  server.start.join
when "client"
  n = Integer(b)
  window = Integer(c)
  socket = TCPSocket.new("127.0.0.1", Integer(a))
  socket.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
  client = FBE::Client.new(schema, socket)
  client.start
  wrong = 0
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  in_flight = []
  (1..n).each do |q|
    in_flight << [q, client.request(schema::NewOrder.new(quantity: q))]
    next if in_flight.size < window && q < n

    in_flight.each do |k, future|
      if (k % 10).zero?
        wrong += 1 unless future.error.is_a?(FBE::RejectedError)
      else
        wrong += 1 unless future.value&.order == k
      end
    end
    in_flight.clear
  end
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
  puts(%({"requests":#{n},"seconds":#{format("%.4f", seconds)},"ok":#{wrong.zero?}}))
  client.close
  socket.close
  exit(wrong.zero? ? 0 : 1)
else
  warn "usage: ruby rpc.rb server PORT_FILE | ruby rpc.rb client PORT N WINDOW"
  exit 2
end
