package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request/response (docs/CLIENT.md) through Client, Server and Proxy: every rule is the
 * core's, so these check that the Java API shows each one (which future ends how, in
 * which order, with which status and text), and the Java parts: threads, streams,
 * sockets, lifetimes. No test measures time: timeouts run on a scripted clock, or on the
 * real one with a short timeout and a bound of a minute that only a dead machine misses.
 */
class ClientTest {
  private Schema exchange;
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeEach
  void load() {
    exchange = Fbe.load(Fixtures.schemas().resolve("exchange.fbe"), List.of(Fixtures.schemas()));
  }

  @AfterEach
  void close() throws Exception {
    Collections.reverse(toClose);
    for (AutoCloseable c : toClose) c.close();
    exchange.close();
  }

  private <T extends AutoCloseable> T closing(T c) {
    toClose.add(c);
    return c;
  }

  static UUID id(int n) {
    return new UUID(0, n);
  }

  Message order(int n, double quantity) {
    return exchange.struct("NewOrder").newMessage().set("id", id(n)).set("symbol", "EURUSD").set("side", "buy")
        .set("price", 1.5).set("quantity", quantity);
  }

  /** A client and a server joined by two in-memory buffers, on a scripted clock; pump() carries the bytes. */
  final class Pair {
    final ByteArrayOutputStream toServer = new ByteArrayOutputStream(), toClient = new ByteArrayOutputStream();
    final List<Message> notified = new ArrayList<>(), requests = new ArrayList<>();
    final List<String> log = new ArrayList<>();
    long now;
    final Client client;
    final Server server;

    Pair(Schema schema, String pkg, Model model) {
      client = closing(schema.client().pkg(pkg).model(model).clock(() -> now).manualWatchdog()
          .onNotify(notified::add).log((way, text) -> log.add("client " + way.word() + " " + text))
          .build(toServer::writeBytes));
      server = closing(schema.server().pkg(pkg).model(model).onMessage(requests::add)
          .log((way, text) -> log.add("server " + way.word() + " " + text))
          .build(toClient::writeBytes));
    }

    Pair() {
      this(exchange, null, Model.STANDARD);
    }

    void toServer() {
      byte[] b = toServer.toByteArray();
      toServer.reset();
      server.feed(b);
    }

    void toClient() {
      byte[] b = toClient.toByteArray();
      toClient.reset();
      client.feed(b);
    }
  }

  static FbeException failure(CompletableFuture<Message> f) {
    assertTrue(f.isCompletedExceptionally(), "the future ended " + f);
    CompletionException e = assertThrows(CompletionException.class, f::join);
    return assertInstanceOf(FbeException.class, e.getCause());
  }

  // ------------------------------------------------------------------ the core's rules

  @Test
  void responsesOutOfOrderRejectsAndNotifications() {
    Pair p = new Pair();
    CompletableFuture<Message> a = p.client.request(order(1, 10));
    CompletableFuture<Message> b = p.client.request(order(2, 20));
    CompletableFuture<Message> c = p.client.request(exchange.struct("CancelOrder").newMessage().set("id", id(3)).set("order", 77));
    assertEquals(3, p.client.pending());
    p.toServer();
    assertEquals(3, p.requests.size());
    // answered in another order than asked, with a notification in the middle
    p.server.reply(p.requests.get(2), exchange.struct("UnknownOrder").newMessage().set("order", 77));
    p.server.reply(p.requests.get(1), exchange.struct("OrderAccepted").newMessage().set("order", 1002));
    p.server.send(exchange.struct("Trade").newMessage().set("order", 1002).set("symbol", "GBPUSD"));
    p.server.reply(p.requests.get(0), exchange.struct("Reject").newMessage().set("reason", "market closed"));
    List<String> order = new ArrayList<>();
    a.whenComplete((m, e) -> order.add("a"));
    b.whenComplete((m, e) -> order.add("b"));
    c.whenComplete((m, e) -> order.add("c"));
    p.toClient();
    assertEquals(List.of("c", "b", "a"), order); // in the order the answers came
    assertEquals(0, p.client.pending());

    Message accepted = b.join();
    assertEquals("exchange.OrderAccepted", accepted.type().fullName());
    assertEquals(id(2), accepted.getUuid("id")); // the server's reply got the request's id from the core
    assertEquals(1002, accepted.getLong("order"));

    RejectedException unknown = assertInstanceOf(RejectedException.class, failure(c));
    assertEquals(Status.REJECTED, unknown.status());
    assertEquals("exchange.UnknownOrder", unknown.reject().type().fullName());
    assertEquals("UnknownOrder(id=\"00000000-0000-0000-0000-000000000003\",order=77)", unknown.getMessage());

    RejectedException rejected = assertInstanceOf(RejectedException.class, failure(a));
    assertEquals("market closed", rejected.reject().getString("reason"));
    assertEquals("Reject(id=\"00000000-0000-0000-0000-000000000001\",reason=\"market closed\")", rejected.getMessage());
    assertEquals("RejectedError", rejected.status().className());

    assertEquals(1, p.notified.size());
    assertEquals("exchange.Trade", p.notified.get(0).type().fullName());
    assertEquals(4, p.client.received());
  }

  @Test
  void globalRejectOfAnImportedPackage() {
    try (Schema gateway = Fbe.load(Fixtures.schemas().resolve("gateway.fbe"), List.of(Fixtures.schemas()))) {
      Pair p = new Pair(gateway, "gateway", Model.FINAL);
      CompletableFuture<Message> quote = p.client.request(gateway.struct("QuoteRequest").newMessage().set("id", id(1))
          .set("symbol", "EURUSD"));
      CompletableFuture<Message> order = p.client.request(gateway.struct("exchange.NewOrder").newMessage().set("id", id(2)));
      p.toServer();
      // exchange.Reject is global (*): it refuses the gateway's own QuoteRequest too
      p.server.reply(p.requests.get(0), gateway.struct("exchange.Reject").newMessage().set("reason", "no quotes"));
      p.server.reply(p.requests.get(1), gateway.struct("exchange.OrderAccepted").newMessage().set("order", 5));
      p.toClient();
      RejectedException e = assertInstanceOf(RejectedException.class, failure(quote));
      assertEquals("exchange.Reject", e.reject().type().fullName());
      assertEquals(5, order.join().getLong("order"));
      // a Quote is the response of a QuoteRequest, and a Reject no answer of a Heartbeat
      FbeException wrong = assertThrows(FbeException.class,
          () -> p.server.reply(p.requests.get(0), gateway.struct("exchange.OrderAccepted").newMessage()));
      assertEquals(Status.TYPE, wrong.status());
      assertEquals("exchange.OrderAccepted is not the response or a reject of request gateway.QuoteRequest", wrong.getMessage());
    }
  }

  @Test
  void aResponseNoRequestWaitsForIsANotification() {
    Pair p = new Pair();
    p.server.send(exchange.struct("OrderAccepted").newMessage().set("id", id(9)).set("order", 1));
    CompletableFuture<Message> a = p.client.request(order(1, 1));
    p.toClient();
    assertFalse(a.isDone());
    assertEquals(1, p.notified.size());
    assertEquals(id(9), p.notified.get(0).getUuid("id"));
  }

  @Test
  void timeoutsOnAScriptedClock() {
    Pair p = new Pair();
    p.now = 1000;
    CompletableFuture<Message> a = p.client.request(order(1, 1), Duration.ofNanos(500));
    CompletableFuture<Message> b = p.client.request(order(2, 1), Duration.ofNanos(100));
    CompletableFuture<Message> c = p.client.request(order(3, 1)); // no timeout
    // requests made at one time count a nanosecond apart (the core's rule): b started at 1001
    assertEquals(OptionalLong.of(1101), p.client.nextDeadline());
    assertEquals(0, p.client.watchdog(1100));
    assertFalse(b.isDone());
    assertEquals(1, p.client.watchdog(1101));
    FbeException e = failure(b);
    assertEquals(Status.TIMEOUT, e.status());
    assertEquals("Timeout!", e.getMessage());
    assertEquals("TimeoutError", e.status().className());
    assertEquals(OptionalLong.of(1500), p.client.nextDeadline());
    assertEquals(1, p.client.watchdog(5000));
    assertEquals(Status.TIMEOUT, failure(a).status());
    assertEquals(OptionalLong.empty(), p.client.nextDeadline());
    assertFalse(c.isDone());
    // the late answer of a timed-out request is a notification
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage());
    p.toClient();
    assertEquals(1, p.notified.size());
  }

  @Test
  void timeoutsOnTheRealClockByTheClientsScheduler() throws Exception {
    List<Message> notified = Collections.synchronizedList(new ArrayList<>());
    Client client = closing(exchange.client().onNotify(notified::add).build(b -> { }));
    CompletableFuture<Message> a = client.request(order(1, 1), Duration.ofMillis(20));
    CompletableFuture<Message> none = client.request(order(2, 1));
    // (a bound for a stalled machine, not a measure: the timer runs after 20 ms)
    ExecutionException e = assertThrows(ExecutionException.class, () -> a.get(60, TimeUnit.SECONDS));
    assertEquals(Status.TIMEOUT, assertInstanceOf(FbeException.class, e.getCause()).status());
    assertFalse(none.isDone());
    assertEquals(1, client.pending());
    assertEquals(OptionalLong.empty(), client.nextDeadline());
  }

  @Test
  void timeoutsFromTheCallersScheduler() throws Exception {
    var scheduler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    try {
      Client client = closing(exchange.client().scheduler(scheduler).timeout(Duration.ofMillis(10)).build(b -> { }));
      CompletableFuture<Message> a = client.request(order(1, 1)); // the builder's default timeout
      ExecutionException e = assertThrows(ExecutionException.class, () -> a.get(60, TimeUnit.SECONDS));
      assertEquals("Timeout!", e.getCause().getMessage());
      client.close();
      assertFalse(scheduler.isShutdown()); // the caller's: not ours to stop
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void resetEndsEveryPendingRequestOldestFirstAndOnlyThose() {
    Pair p = new Pair();
    CompletableFuture<Message> answered = p.client.request(order(1, 1));
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage());
    p.toClient();
    List<String> ends = new ArrayList<>();
    CompletableFuture<Message> a = p.client.request(order(2, 1));
    CompletableFuture<Message> b = p.client.request(order(3, 1), Duration.ofSeconds(1));
    a.whenComplete((m, e) -> ends.add("a " + e.getMessage()));
    b.whenComplete((m, e) -> ends.add("b " + e.getMessage()));
    p.client.feed(new byte[] {10, 0}); // a partial frame, dropped by the reset
    assertEquals(2, p.client.pendingBytes());
    p.client.reset();
    assertEquals(List.of("a Reset client!", "b Reset client!"), ends);
    assertEquals(Status.RESET, failure(a).status());
    assertEquals("ResetError", failure(b).status().className());
    assertTrue(answered.isDone() && !answered.isCompletedExceptionally());
    assertEquals(0, p.client.pendingBytes());
    assertEquals(0, p.client.pending());
  }

  @Test
  void aResetOfTwentyThousandRequests() {
    Client client = closing(exchange.client().manualWatchdog().build(b -> { }));
    List<CompletableFuture<Message>> fs = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int n = i;
      CompletableFuture<Message> f = client.request(order(i + 1, 1), Duration.ofSeconds(i % 2));
      f.whenComplete((m, e) -> ends.add(n));
      fs.add(f);
    }
    assertEquals(20_000, client.pending());
    client.reset();
    for (CompletableFuture<Message> f : fs) assertEquals(Status.RESET, failure(f).status());
    for (int i = 0; i < ends.size(); i++) assertEquals(i, ends.get(i)); // oldest first
    assertEquals(20_000, ends.size());
  }

  @Test
  void closeFromATimeoutOnTheClientsOwnScheduler() throws Exception {
    Client client = closing(exchange.client().build(b -> { }));
    CompletableFuture<Message> other = client.request(order(2, 1));
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    client.request(order(1, 1), Duration.ofMillis(5)).whenComplete((m, e) -> {
      client.close(); // on the watchdog's own thread, inside its call
      interrupted.complete(Thread.currentThread().isInterrupted());
    });
    assertFalse(interrupted.get(60, TimeUnit.SECONDS));
    assertEquals(Status.RESET, failure(other).status());
    assertTrue(client.isClosed());
  }

  @Test
  void aRequestWithoutAResponseEndsWhenSent() {
    Pair p = new Pair();
    CompletableFuture<Message> hb = p.client.request(exchange.struct("Heartbeat").newMessage().set("time", 5L));
    assertTrue(hb.isDone());
    assertNull(hb.join());
    assertEquals(0, p.client.pending());
    p.toServer();
    assertEquals("exchange.Heartbeat", p.requests.get(0).type().fullName());
  }

  @Test
  void refusalsSendNothing() {
    Pair p = new Pair();
    Client capped = closing(exchange.client().maxPending(2).manualWatchdog().build(p.toServer::writeBytes));
    capped.request(order(1, 1));
    int sent = p.toServer.size();
    // a duplicate id
    FbeException dup = assertThrows(FbeException.class, () -> capped.request(order(1, 2)));
    assertEquals(Status.ARGUMENT, dup.status());
    assertEquals("a request with id \"00000000-0000-0000-0000-000000000001\" is already pending", dup.getMessage());
    capped.request(order(2, 1));
    sent = p.toServer.size();
    // the cap
    FbeException cap = assertThrows(FbeException.class, () -> capped.request(order(3, 1)));
    assertEquals(Status.LIMIT, cap.status());
    assertEquals("2 requests are pending, the limit (max_pending)", cap.getMessage());
    // not a request type
    FbeException type = assertThrows(FbeException.class,
        () -> capped.request(exchange.struct("OrderAccepted").newMessage()));
    assertEquals(Status.TYPE, type.status());
    assertEquals("exchange.OrderAccepted is not a request (no [request] in the schema)", type.getMessage());
    // a message of another schema
    try (Schema other = Fixtures.proto()) {
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> capped.request(other.struct("Order").newMessage())).status());
    }
    assertEquals(sent, p.toServer.size());
    assertEquals(2, capped.pending());
    assertEquals(Status.RANGE, assertThrows(FbeException.class, () -> capped.request(order(4, 1), Duration.ofSeconds(-1))).status());
  }

  @Test
  void aSinkThatThrowsRefusesTheRequest() {
    IllegalStateException broken = new IllegalStateException("the line is down");
    Client client = closing(exchange.client().build(b -> {
      throw broken;
    }));
    FbeException e = assertThrows(FbeException.class, () -> client.request(order(1, 1)));
    assertEquals(Status.IO, e.status());
    assertSame(broken, e.getCause());
    assertEquals(0, client.pending()); // not registered (the core's rule)
    assertEquals(Status.IO, assertThrows(FbeException.class, () -> client.send(exchange.struct("Trade").newMessage())).status());
  }

  @Test
  void hostileFramesAreTheFeedsErrorAndRequestsStay() {
    Pair p = new Pair();
    CompletableFuture<Message> a = p.client.request(order(1, 1));
    FbeException e = assertThrows(FbeException.class, () -> p.client.feed(new byte[] {3, 0, 0, 0, 1, 2, 3, 4}));
    assertEquals(Status.MALFORMED, e.status());
    assertEquals(0, e.offset());
    assertEquals(1, p.client.pending());
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage().set("order", 3));
    p.toClient();
    assertEquals(3, a.join().getLong("order"));
  }

  @Test
  void bothModelsAndChunksOfOneByte() {
    for (Model model : Model.values()) {
      Pair p = new Pair(exchange, "exchange", model);
      List<CompletableFuture<Message>> fs = new ArrayList<>();
      for (int i = 1; i <= 5; i++) fs.add(p.client.request(order(i, i)));
      byte[] requests = p.toServer.toByteArray();
      p.toServer.reset();
      for (byte x : requests) p.server.feed(new byte[] {x});
      for (Message r : p.requests)
        p.server.reply(r, exchange.struct("OrderAccepted").newMessage().set("order", (long) r.getDouble("quantity")));
      byte[] answers = p.toClient.toByteArray();
      for (byte x : answers) p.client.feed(new byte[] {x});
      for (int i = 1; i <= 5; i++) assertEquals(i, fs.get(i - 1).join().getLong("order"), model + " " + i);
    }
  }

  @Test
  void logHooksGetTheCoresTextForm() {
    Pair p = new Pair();
    p.client.request(order(1, 2));
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage().set("order", 7));
    p.toClient();
    String order = "NewOrder(id=\"00000000-0000-0000-0000-000000000001\",symbol=\"EURUSD\",side=buy,price=1.5,quantity=2.0)";
    String accepted = "OrderAccepted(id=\"00000000-0000-0000-0000-000000000001\",order=7)";
    assertEquals(List.of("client send " + order, "server receive " + order, "server send " + accepted,
        "client receive " + accepted), p.log);
  }

  @Test
  void senderAndReceiverLogHooks() {
    List<String> lines = new ArrayList<>();
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    try (Sender sender = exchange.sender(frame -> {
           lines.add("sink");
           wire.writeBytes(frame);
         }, null, Model.FINAL).setLog((way, text) -> lines.add(way.word() + " " + text));
         Receiver receiver = exchange.receiver(m -> lines.add("handler " + m.type().name()), null, Model.FINAL)
             .setLog((way, text) -> lines.add(way.word() + " " + text))) {
      sender.send(exchange.struct("Trade").newMessage().set("order", 5).set("symbol", "EURUSD"));
      receiver.feed(wire.toByteArray());
      sender.setLog(null);
      sender.send(exchange.struct("Trade").newMessage());
    }
    String trade = "Trade(order=5,symbol=\"EURUSD\",price=0.0,quantity=0.0)";
    // the core's order: logged once encoded, before the sink; once decoded, before the handler
    assertEquals(List.of("send " + trade, "sink", "receive " + trade, "handler Trade", "sink"), lines);
  }

  @Test
  void aLogHookThatThrowsChangesNothing() {
    List<Throwable> uncaught = new ArrayList<>();
    Thread t = Thread.currentThread();
    Thread.UncaughtExceptionHandler before = t.getUncaughtExceptionHandler();
    t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Client client = closing(exchange.client().log((way, text) -> {
        throw new IllegalStateException("log full");
      }).build(out::writeBytes));
      CompletableFuture<Message> f = client.request(order(1, 1));
      assertFalse(f.isDone());
      assertEquals(1, client.pending());
      assertTrue(out.size() > 0);
      assertEquals("log full", uncaught.get(0).getMessage());
    } finally {
      t.setUncaughtExceptionHandler(before);
    }
  }

  // ------------------------------------------------------------------ callbacks inside the calls

  @Test
  void aResetFromACallbackOfTheFeedStopsThatFeed() {
    Pair p = new Pair();
    CompletableFuture<Message> a = p.client.request(order(1, 1));
    CompletableFuture<Message> b = p.client.request(order(2, 1));
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage());
    p.server.reply(p.requests.get(1), exchange.struct("OrderAccepted").newMessage()); // in the same chunk
    a.thenRun(p.client::reset); // runs inside the feed, on its thread
    p.toClient();
    assertFalse(a.isCompletedExceptionally());
    assertEquals(Status.RESET, failure(b).status()); // the feed stopped after a's response
    assertEquals(0, p.client.pendingBytes()); // and the rest of the chunk went with the receiver's state
    assertEquals(1, p.client.received());
  }

  @Test
  void requestsFromCallbacks() {
    Pair p = new Pair();
    CompletableFuture<Message> second = new CompletableFuture<>();
    p.client.request(order(1, 1)).thenAccept(m -> p.client.request(order(2, 2)).whenComplete((r, e) -> {
      if (e != null) second.completeExceptionally(e);
      else second.complete(r);
    }));
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage());
    p.toClient(); // the callback made request 2 inside this feed
    assertEquals(1, p.client.pending());
    p.toServer();
    p.server.reply(p.requests.get(1), exchange.struct("OrderAccepted").newMessage().set("order", 2));
    p.toClient();
    assertEquals(2, second.join().getLong("order"));
  }

  @Test
  void aListenerThatThrowsStopsTheFeedAndTheRestWaits() {
    AtomicInteger calls = new AtomicInteger();
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    Client client = closing(exchange.client().onNotify(m -> {
      if (calls.incrementAndGet() == 1) throw new IllegalArgumentException("not now");
    }).build(b -> { }));
    try (Sender s = exchange.sender(wire)) {
      s.send(exchange.struct("Trade").newMessage());
      s.send(exchange.struct("Trade").newMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> client.feed(wire.toByteArray()));
    assertEquals("not now", e.getMessage());
    assertEquals(1, calls.get());
    client.feed(new byte[0]); // goes on with the bytes after it
    assertEquals(2, calls.get());
  }

  @Test
  void aClientCannotBeFedFromItsOwnCallbacks() {
    AtomicReference<Client> self = new AtomicReference<>();
    AtomicReference<FbeException> refused = new AtomicReference<>();
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    try (Sender s = exchange.sender(wire)) {
      s.send(exchange.struct("Trade").newMessage());
    }
    self.set(closing(exchange.client().onNotify(m -> {
      try {
        self.get().feed(new byte[1]);
      } catch (FbeException e) {
        refused.set(e);
      }
    }).build(b -> { })));
    self.get().feed(wire.toByteArray());
    assertEquals(Status.ARGUMENT, refused.get().status());
    assertEquals("fbe_client_feed called from one of its callbacks", refused.get().getMessage());
  }

  // ------------------------------------------------------------------ the server's side

  @Test
  void handlersAnswerRejectAndFail() {
    Pair p = new Pair();
    List<String> errors = new ArrayList<>();
    Server server = closing(exchange.server()
        .handle(exchange.struct("NewOrder"), o -> {
          double q = o.getDouble("quantity");
          if (q > 100) throw new RejectedException(exchange.struct("Reject").newMessage().set("reason", "too large"));
          if (q == 0) return exchange.struct("Reject").newMessage().set("reason", "empty");
          if (q == 13) throw new IllegalStateException("unlucky");
          if (q == 14) return exchange.struct("Trade").newMessage(); // not an answer of a NewOrder
          return exchange.struct("OrderAccepted").newMessage().set("order", (long) q);
        })
        .handleAsync(exchange.struct("CancelOrder"), c -> CompletableFuture.supplyAsync(
            () -> exchange.struct("OrderCancelled").newMessage().set("order", c.getLong("order"))))
        .onError((request, e) -> errors.add(request.getDouble("quantity") + ": " + e.getMessage()))
        .build(p.toClient::writeBytes));
    List<CompletableFuture<Message>> fs = new ArrayList<>();
    for (double q : new double[] {5, 500, 0, 13, 14}) fs.add(p.client.request(order(fs.size() + 1, q)));
    CompletableFuture<Message> cancel = p.client.request(exchange.struct("CancelOrder").newMessage().set("id", id(9)).set("order", 77));
    server.feed(p.toServer.toByteArray());
    assertEquals(77, awaitAnswer(p, cancel).getLong("order"));
    assertEquals(5, fs.get(0).join().getLong("order"));
    assertEquals("too large", assertInstanceOf(RejectedException.class, failure(fs.get(1))).reject().getString("reason"));
    assertEquals("empty", assertInstanceOf(RejectedException.class, failure(fs.get(2))).reject().getString("reason"));
    assertFalse(fs.get(3).isDone());
    assertFalse(fs.get(4).isDone());
    assertEquals(List.of("13.0: unlucky", "14.0: exchange.Trade is not the response or a reject of request exchange.NewOrder"),
        errors);
    assertThrows(FbeException.class, () -> server.handle(exchange.struct("Trade"), m -> null));
  }

  /** The async answer is written by another thread: feed the client until the future ends. */
  private Message awaitAnswer(Pair p, CompletableFuture<Message> f) {
    for (int i = 0; i < 60_000 && !f.isDone(); i++) {
      byte[] b;
      synchronized (p.toClient) {
        b = p.toClient.toByteArray();
        p.toClient.reset();
      }
      p.client.feed(b);
      if (!f.isDone()) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return f.join();
  }

  @Test
  void aHandlerThatThrowsWithoutOnErrorComesOutOfTheFeed() {
    Pair p = new Pair();
    Server server = closing(exchange.server().handle(exchange.struct("NewOrder"), o -> {
      throw new IllegalStateException("down");
    }).build(b -> { }));
    p.client.request(order(1, 1));
    p.client.request(order(2, 1));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> server.feed(p.toServer.toByteArray()));
    assertEquals("down", e.getMessage());
    assertEquals(1, server.received());
    assertThrows(IllegalStateException.class, () -> server.feed(new byte[0])); // the next request, buffered
    assertEquals(2, server.received());
  }

  // ------------------------------------------------------------------ proxies

  @Test
  void aProxyForwardsAStreamByteForByte() {
    for (Model model : Model.values()) {
      ByteArrayOutputStream wire = new ByteArrayOutputStream();
      Client client = closing(exchange.client().model(model).build(wire::writeBytes));
      for (int i = 1; i <= 3; i++) client.request(order(i, i));
      client.send(exchange.struct("Trade").newMessage().set("symbol", "GBPUSD"));
      int otherId;
      try (Schema other = Fbe.loadString("package other offset 900\nmessage X { int32 a; }\n", "other.fbe", List.of());
           Sender s = other.sender(wire, null, model)) {
        s.send(other.struct("X").newMessage().set("a", 7)); // a type id exchange's protocol does not have
        otherId = other.struct("X").typeId();
      }
      byte[] stream = wire.toByteArray();
      ByteArrayOutputStream forwarded = new ByteArrayOutputStream();
      List<Proxy.Frame> frames = new ArrayList<>();
      Proxy proxy = closing(exchange.proxy().model(model).verify(true).build(f -> {
        frames.add(f);
        f.writeTo(forwarded);
      }));
      for (int at = 0; at < stream.length; at += 5) proxy.feed(stream, at, Math.min(5, stream.length - at));
      assertArrayEquals(stream, forwarded.toByteArray(), model.toString());
      assertEquals(5, frames.size());
      assertEquals(exchange.struct("NewOrder"), frames.get(0).type());
      assertEquals(exchange.struct("NewOrder").typeId(), frames.get(0).typeId());
      assertEquals(exchange.struct("Trade"), frames.get(3).type());
      assertFalse(frames.get(4).isKnown());
      assertEquals(otherId, frames.get(4).typeId());
      assertNull(frames.get(4).type());
      assertEquals(4, proxy.received());
      assertEquals(1, proxy.skipped());
    }
  }

  @Test
  void aProxyOverStreamsAndItsErrors() throws IOException {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    Client client = closing(exchange.client().build(wire::writeBytes));
    client.request(order(1, 1));
    byte[] good = wire.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Proxy proxy = closing(exchange.proxy().build(out));
    assertEquals(good.length, proxy.readFrom(new java.io.ByteArrayInputStream(good)));
    assertArrayEquals(good, out.toByteArray());
    // a frame of a known type that does not verify: the receiver's error with verify, handed over without
    Proxy verifying = closing(exchange.proxy().verify(true).build(f -> { }));
    Proxy trusting = closing(exchange.proxy().build(f -> { }));
    int refusedByVerifyOnly = 0;
    for (int at = 8; at < good.length; at++) {
      byte[] bad = good.clone();
      bad[at] = (byte) 0xFF;
      boolean trusted, verified;
      try {
        trusting.feed(bad);
        trusted = true;
      } catch (FbeException e) {
        trusted = false;
      }
      try {
        verifying.feed(bad);
        verified = true;
      } catch (FbeException e) {
        assertTrue(e.status().is(Status.MALFORMED) || e.status() == Status.LIMIT, e.toString());
        verified = false;
      }
      if (trusted && !verified) refusedByVerifyOnly++;
      assertTrue(trusted || !verified, "verify passed what the size checks refuse at " + at);
    }
    assertTrue(refusedByVerifyOnly > 0);
    FbeException small = assertThrows(FbeException.class, () -> trusting.feed(new byte[] {2, 0, 0, 0}));
    assertEquals(Status.MALFORMED, small.status());
  }

  // ------------------------------------------------------------------ real streams, threads

  @Test
  void aThousandRequestsOverASocketFromFourThreads() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Long> served = new CompletableFuture<>();
      Thread serverThread = new Thread(() -> {
        try (Socket socket = listener.accept();
             Server server = exchange.server()
                 .handle(exchange.struct("NewOrder"), o -> {
                   long q = (long) o.getDouble("quantity");
                   if (q % 10 == 0) throw new RejectedException(exchange.struct("Reject").newMessage().set("reason", "tenth " + q));
                   return exchange.struct("OrderAccepted").newMessage().set("order", q);
                 })
                 .build(socket.getOutputStream())) {
          served.complete(server.readFrom(socket.getInputStream()));
        } catch (Throwable e) {
          served.completeExceptionally(e);
        }
      }, "test-server");
      serverThread.start();
      try (Socket socket = new Socket(listener.getInetAddress(), listener.getLocalPort());
           Client client = exchange.client().build(socket.getOutputStream())) {
        CompletableFuture<Long> reading = client.startReading(socket.getInputStream());
        int threads = 4, each = 250;
        List<List<CompletableFuture<Message>>> all = new ArrayList<>();
        List<Thread> requesters = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
          List<CompletableFuture<Message>> mine = new ArrayList<>();
          all.add(mine);
          final int base = t * each;
          Thread th = new Thread(() -> {
            try {
              start.await();
              for (int i = 1; i <= each; i++) mine.add(client.request(order(base + i, base + i), Duration.ofMinutes(5)));
            } catch (Throwable e) {
              failure.set(e);
            }
          });
          requesters.add(th);
          th.start();
        }
        start.countDown();
        for (Thread th : requesters) th.join();
        assertNull(failure.get());
        int accepted = 0, rejected = 0;
        for (int t = 0; t < threads; t++) {
          for (int i = 1; i <= each; i++) {
            int n = t * each + i;
            CompletableFuture<Message> f = all.get(t).get(i - 1);
            try {
              Message m = f.get(5, TimeUnit.MINUTES);
              assertEquals(id(n), m.getUuid("id"));
              assertEquals(n, m.getLong("order"));
              accepted++;
            } catch (ExecutionException e) {
              RejectedException r = assertInstanceOf(RejectedException.class, e.getCause());
              assertEquals(0, n % 10);
              assertEquals(id(n), r.reject().getUuid("id"));
              assertEquals("tenth " + n, r.reject().getString("reason"));
              rejected++;
            }
          }
        }
        assertEquals(900, accepted);
        assertEquals(100, rejected);
        assertEquals(0, client.pending());
        assertEquals(1000, client.received());
        socket.shutdownOutput(); // the server's input ends: its reader returns
        assertTrue(served.get(5, TimeUnit.MINUTES) > 0);
        assertTrue(reading.get(5, TimeUnit.MINUTES) > 0); // the server closed its side
      }
      serverThread.join();
    }
  }

  /**
   * A sender never waits for its peer to read, and a reader never writes: the server's
   * first handler waits until the client has made all of 2,000 requests of 16 KiB (32 MB,
   * far more than the socket buffers hold: a client writing on the requesting thread would
   * block in request() and never get there), then each is answered with a 16 KiB
   * notification and its response, both directions' buffers full at once. The bounds are
   * for a hang, not a measure.
   */
  @Test
  void fullSocketBuffersBothWaysDoNotDeadlock() throws Exception {
    String big = "x".repeat(16 * 1024);
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Long> served = new CompletableFuture<>();
      CountDownLatch allMade = new CountDownLatch(1);
      Thread serverThread = new Thread(() -> {
        try (Socket socket = listener.accept()) {
          Server[] self = new Server[1];
          self[0] = exchange.server().handle(exchange.struct("NewOrder"), o -> {
            try {
              if (!allMade.await(5, TimeUnit.MINUTES)) throw new IllegalStateException("the client blocked in request()");
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            self[0].send(exchange.struct("Trade").newMessage().set("symbol", big));
            return exchange.struct("OrderAccepted").newMessage();
          }).build(socket.getOutputStream());
          try (Server server = self[0]) {
            served.complete(server.readFrom(socket.getInputStream()));
          }
        } catch (Throwable e) {
          served.completeExceptionally(e);
        }
      }, "test-server");
      serverThread.start();
      AtomicInteger notes = new AtomicInteger();
      try (Socket socket = new Socket(listener.getInetAddress(), listener.getLocalPort());
           Client client = exchange.client().onNotify(m -> notes.incrementAndGet()).build(socket.getOutputStream())) {
        client.startReading(socket.getInputStream());
        List<CompletableFuture<Message>> fs = new ArrayList<>();
        for (int i = 1; i <= 2000; i++) fs.add(client.request(order(i, i).set("symbol", big)));
        allMade.countDown();
        CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).get(5, TimeUnit.MINUTES);
        assertEquals(2000, notes.get());
        socket.shutdownOutput();
        assertTrue(served.get(5, TimeUnit.MINUTES) > 2000L * big.length());
      }
      serverThread.join();
    }
  }

  @Test
  void theEndOfTheInputResetsTheClient() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    Client client = closing(exchange.client().build(wire));
    CompletableFuture<Message> a = client.request(order(1, 1));
    assertEquals(0, client.readFrom(new java.io.ByteArrayInputStream(new byte[0])));
    assertEquals(Status.RESET, failure(a).status());
  }

  @Test
  void aFailedWriteEndsTheOutput() {
    AtomicInteger writes = new AtomicInteger();
    OutputStream out = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (writes.incrementAndGet() > 1) throw new IOException("connection reset");
      }
    };
    Client client = closing(exchange.client().build(out));
    CompletableFuture<Message> a = client.request(order(1, 1));
    CompletableFuture<Message> b = client.request(order(2, 1));
    // the writer thread's second write fails: the frames are lost, the client is reset
    for (CompletableFuture<Message> f : List.of(a, b)) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
      assertEquals(Status.RESET, ((FbeException) e.getCause()).status());
    }
    FbeException later = assertThrows(FbeException.class, () -> client.request(order(3, 1)));
    assertEquals(Status.IO, later.status());
    assertEquals("connection reset", later.getCause().getCause().getMessage());
    assertEquals(0, client.pending());
  }

  // ------------------------------------------------------------------ lifetimes

  @Test
  void closeWhileRequestsPendEndsThemAndRefusesLaterCalls() {
    Pair p = new Pair();
    CompletableFuture<Message> a = p.client.request(order(1, 1), Duration.ofSeconds(5));
    p.client.close();
    assertEquals(Status.RESET, failure(a).status());
    assertTrue(p.client.isClosed());
    p.client.close(); // idempotent
    for (Runnable call : List.<Runnable>of(() -> p.client.request(order(2, 1)), () -> p.client.feed(new byte[1]),
        p.client::reset, p.client::pending, () -> p.client.watchdog(0))) {
      FbeException e = assertThrows(FbeException.class, call::run);
      assertEquals("the client is closed", e.getMessage());
    }
    p.server.close();
    assertEquals("the server is closed", assertThrows(FbeException.class, () -> p.server.feed(new byte[1])).getMessage());
  }

  @Test
  void closeFromACallbackTakesEffectWhenTheCallReturns() {
    Pair p = new Pair();
    CompletableFuture<Message> a = p.client.request(order(1, 1));
    CompletableFuture<Message> b = p.client.request(order(2, 1));
    p.toServer();
    p.server.reply(p.requests.get(0), exchange.struct("OrderAccepted").newMessage());
    p.server.reply(p.requests.get(1), exchange.struct("OrderAccepted").newMessage());
    AtomicReference<Throwable> inner = new AtomicReference<>();
    a.thenRun(() -> {
      p.client.close(); // inside the feed: b ends with RESET, the feed stops
      try {
        p.client.request(order(3, 1));
      } catch (FbeException e) {
        inner.set(e);
      }
    });
    p.toClient();
    assertEquals(Status.RESET, failure(b).status());
    assertEquals("the client is closed", inner.get().getMessage());
    assertTrue(p.client.isClosed());
  }

  @Test
  void aServerClosedByItsHandlerStopsItsFeed() {
    Pair p = new Pair();
    List<Long> seen = new ArrayList<>();
    Server[] self = new Server[1];
    self[0] = closing(exchange.server().handle(exchange.struct("NewOrder"), o -> {
      seen.add((long) o.getDouble("quantity"));
      self[0].close(); // inside the feed: it stops after this request
      return exchange.struct("OrderAccepted").newMessage();
    }).onError((r, e) -> seen.add(-1L)).build(b -> { }));
    p.client.request(order(1, 1));
    p.client.request(order(2, 2));
    self[0].feed(p.toServer.toByteArray());
    assertEquals(List.of(1L, -1L), seen); // its answer refused (closed), the second request never handled
    assertTrue(self[0].isClosed());
  }

  @Test
  void closeFromAnotherThreadWaitsForTheRunningCall() throws Exception {
    CountDownLatch inside = new CountDownLatch(1), release = new CountDownLatch(1);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    try (Sender s = exchange.sender(wire)) {
      s.send(exchange.struct("Trade").newMessage());
    }
    Client client = closing(exchange.client().onNotify(m -> {
      inside.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }).build(b -> { }));
    Thread feeder = new Thread(() -> client.feed(wire.toByteArray()));
    feeder.start();
    inside.await();
    AtomicReference<String> closed = new AtomicReference<>();
    Thread closer = new Thread(() -> {
      client.close();
      closed.set("closed");
    });
    closer.start();
    // the closer waits for the lock the feed holds (no time is measured: it cannot end before release)
    assertNull(closed.get());
    release.countDown();
    feeder.join();
    closer.join();
    assertEquals("closed", closed.get());
    assertTrue(client.isClosed());
  }

  @Test
  void aDroppedClientEndsItsRequestsWhenCleaned() throws Exception {
    List<CompletableFuture<Message>> fs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Client c = exchange.client().build(b -> { }); // never closed
      fs.add(c.request(order(1, 1)));
    }
    for (int round = 0; round < 1000 && !fs.stream().allMatch(CompletableFuture::isDone); round++) {
      CountDownLatch ran = new CountDownLatch(1);
      Schema.CLEANER.register(new Object(), ran::countDown);
      System.gc();
      ran.await();
    }
    for (CompletableFuture<Message> f : fs) assertEquals(Status.RESET, failure(f).status());
  }

  @Test
  void aClientOutlivesItsSchemasClose() {
    Schema s = Fbe.load(Fixtures.schemas().resolve("exchange.fbe"), List.of(Fixtures.schemas()));
    Client client = s.client().build(b -> { });
    CompletableFuture<Message> a = client.request(s.struct("NewOrder").newMessage());
    s.close(); // no call is running: the schema closes; the native client keeps the core's schema
    assertEquals("the schema is closed", assertThrows(FbeException.class, () -> client.feed(new byte[1])).getMessage());
    client.reset(); // needs no tables
    assertEquals(Status.RESET, failure(a).status());
    client.close();
  }

  @Test
  void requestIntrospection() {
    StructType newOrder = exchange.struct("NewOrder");
    assertTrue(newOrder.isRequest());
    assertEquals(exchange.struct("OrderAccepted"), newOrder.response());
    assertEquals(List.of(exchange.struct("Reject")), newOrder.rejects());
    assertEquals(List.of(exchange.struct("Reject"), exchange.struct("UnknownOrder")), exchange.struct("CancelOrder").rejects());
    assertTrue(exchange.struct("Heartbeat").isRequest());
    assertNull(exchange.struct("Heartbeat").response());
    assertFalse(exchange.struct("Trade").isRequest());
    assertNotNull(exchange.client().pkg("exchange").build(b -> { }).schema());
    assertEquals(Status.NOT_FOUND, assertThrows(FbeException.class, () -> exchange.client().pkg("nope").build(b -> { })).status());
  }
}
