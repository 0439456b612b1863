package org.libfbe;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.libfbe.internal.FbeCore;
import org.libfbe.internal.fbe_status;

/**
 * The Java testee's conversations (docs/TESTEE.md, "Conversations"): sessions that are a
 * {@link Client}, a {@link Server} or a {@link Proxy} of a package, driven through the
 * public API only. The runner plays the wire (what a session's sink got is the answer's
 * "hex") and the clock (the client's clock is the runner's last "now", and its watchdog
 * is manual: it runs when the runner says). Each request's future records how it ended
 * (whenComplete, which runs when the core ends it, inside the call that ended it), so
 * "ended" lists the requests in the order the core ended them. Numbers that may be 64-bit
 * (now, timeout, token) are read as their text.
 */
final class TesteeSessions {
  static final Set<String> OPS = Set.of("client", "server", "proxy", "request", "feed", "watchdog", "reset", "serve",
      "reply", "send", "close");

  private static final HexFormat HEX = HexFormat.of();

  private static final class Session {
    final String kind;
    final Schema schema;
    final String pkg;
    Peer peer;
    long now;
    final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    final List<Object> ended = new ArrayList<>(), notified = new ArrayList<>(), items = new ArrayList<>(),
        log = new ArrayList<>();
    final List<Message> received = new ArrayList<>();

    Session(String kind, Schema schema, String pkg) {
      this.kind = kind;
      this.schema = schema;
      this.pkg = pkg;
    }
  }

  private final Function<String, Schema> schemaFor;
  private final Map<String, Session> open = new LinkedHashMap<>();

  /** @param schemaFor a package's schema (the testee's cache, emptied by load) */
  TesteeSessions(Function<String, Schema> schemaFor) {
    this.schemaFor = schemaFor;
  }

  void closeAll() {
    for (Session s : open.values()) s.peer.close();
    open.clear();
  }

  private static Map<String, Object> fail(String why) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", false);
    out.put("error", why);
    return out;
  }

  private static String str(Map<String, Object> r, String k) {
    Object v = r.get(k);
    if (!(v instanceof String)) throw new IllegalArgumentException("request needs \"" + k + "\"");
    return (String) v;
  }

  /** A non-negative integer member as its 64 bits (0 when absent). */
  private static long u64(Map<String, Object> r, String k) {
    Object v = r.get(k);
    if (v == null) return 0;
    if (!(v instanceof Json.Num) || !v.toString().matches("[0-9]+"))
      throw new IllegalArgumentException("\"" + k + "\" must be a non-negative integer");
    return Long.parseUnsignedLong(v.toString());
  }

  Map<String, Object> handle(Map<String, Object> r) {
    String op = String.valueOf(r.get("op"));
    if (op.equals("client") || op.equals("server") || op.equals("proxy")) return start(op, r);
    if (!(r.get("session") instanceof String)) return fail("request needs \"session\"");
    Session s = open.get((String) r.get("session"));
    if (s == null) return fail("no such session");
    switch (op) {
      case "close": {
        s.peer.close();
        open.remove((String) r.get("session"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ok", true);
        return out;
      }
      case "request":
        if (!s.kind.equals("client")) return fail("not a client session");
        return request(s, r);
      case "feed":
        if (s.kind.equals("server")) return fail("a server session is fed by \"serve\"");
        return feed(s, r, s.kind.equals("client") ? List.of("ended", "notified") : List.of("frames"));
      case "serve":
        if (!s.kind.equals("server")) return fail("not a server session");
        return feed(s, r, List.of("requests"));
      case "watchdog":
      case "reset": {
        if (!s.kind.equals("client")) return fail("not a client session");
        Client c = (Client) s.peer;
        if (op.equals("reset")) c.reset();
        else c.watchdog(u64(r, "now"));
        return answer(s, null, false, "ended");
      }
      case "reply": {
        if (!s.kind.equals("server")) return fail("not a server session");
        long i = u64(r, "request");
        if (i >= s.received.size()) return fail("no such request");
        Message reply = message(s, r);
        FbeException error = null;
        try {
          ((Server) s.peer).reply(s.received.get((int) i), reply);
        } catch (FbeException e) {
          error = e;
        }
        return answer(s, error, true);
      }
      default: { // send
        if (s.kind.equals("proxy")) return fail("a proxy sends nothing");
        Message m = message(s, r);
        FbeException error = null;
        try {
          if (s.peer instanceof Client) ((Client) s.peer).send(m);
          else ((Server) s.peer).send(m);
        } catch (FbeException e) {
          error = e;
        }
        return s.kind.equals("client") ? answer(s, error, true, "ended") : answer(s, error, true);
      }
    }
  }

  /** Opens a client, server or proxy session of the request's package and model. */
  private Map<String, Object> start(String kind, Map<String, Object> r) {
    String name = str(r, "session");
    if (open.containsKey(name)) return fail("a session of that name is open");
    String pkg = str(r, "package");
    Schema schema = schemaFor.apply(pkg);
    Model model = "final".equals(r.get("model")) ? Model.FINAL : Model.STANDARD;
    boolean log = Boolean.TRUE.equals(r.get("log"));
    Session s = new Session(kind, schema, pkg);
    LogHook hook = log ? (way, text) -> s.log.add(way.word() + " " + text) : null;
    switch (kind) {
      case "client":
        s.peer = schema.client().pkg(pkg).model(model).maxPending(u64(r, "max_pending")).log(hook)
            .clock(() -> s.now).manualWatchdog()
            .onNotify(m -> s.notified.add(typed(m, new LinkedHashMap<>())))
            .build(s.wire::writeBytes);
        break;
      case "server":
        s.peer = schema.server().pkg(pkg).model(model).log(hook)
            .onMessage(m -> {
              s.received.add(m);
              s.items.add(typed(m, new LinkedHashMap<>()));
            })
            .build(s.wire::writeBytes);
        break;
      default:
        s.peer = schema.proxy().pkg(pkg).model(model).verify(Boolean.TRUE.equals(r.get("verify"))).build(f -> {
          Map<String, Object> frame = new LinkedHashMap<>();
          frame.put("type_id", new Json.Num(Integer.toUnsignedString(f.typeId())));
          frame.put("known", f.isKnown());
          frame.put("hex", HEX.formatHex(f.bytes()));
          s.items.add(frame);
        });
    }
    open.put(name, s);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", true);
    return out;
  }

  /** A client's request: how its future ends goes to "ended" (or, refused, the answer). */
  private Map<String, Object> request(Session s, Map<String, Object> r) {
    long now = u64(r, "now"), timeout = u64(r, "timeout");
    Object token = r.get("token") == null ? new Json.Num("0") : r.get("token");
    u64(r, "token"); // (checked)
    Message m = message(s, r);
    s.now = now;
    Duration t = timeout >= 0 ? Duration.ofNanos(timeout) : Duration.ofSeconds(Long.MAX_VALUE);
    CompletableFuture<Message> f;
    try {
      f = ((Client) s.peer).request(m, t);
    } catch (FbeException e) { // refused: nothing was sent
      return answer(s, e, true, "ended");
    }
    f.whenComplete((response, error) -> {
      Map<String, Object> end = new LinkedHashMap<>();
      end.put("token", token);
      Throwable e = error instanceof CompletionException ? error.getCause() : error;
      if (e == null) {
        end.put("end", response == null ? "sent" : "responded");
        if (response != null) typed(response, end);
      } else {
        FbeException fe = (FbeException) e;
        end.put("end", fe.status() == Status.REJECTED ? "rejected" : fe.status() == Status.TIMEOUT ? "timeout" : "reset");
        if (fe instanceof RejectedException) typed(((RejectedException) fe).reject(), end);
        end.put("status", statusName(fe));
        end.put("error", fe.getMessage());
      }
      s.ended.add(end);
    });
    return answer(s, null, true, "ended");
  }

  /** Received bytes to a client, server or proxy, in pieces of chunk_size. */
  private Map<String, Object> feed(Session s, Map<String, Object> r, List<String> lists) {
    byte[] bytes = HEX.parseHex(r.get("hex") instanceof String ? (String) r.get("hex") : "");
    long step = u64(r, "chunk_size");
    if (step == 0 || step > bytes.length) step = Math.max(bytes.length, 1);
    FbeException error = null;
    try {
      for (int at = 0; at < bytes.length || at == 0; at += (int) step) {
        s.peer.feed(bytes, at, (int) Math.min(step, bytes.length - at));
        if (bytes.length == 0) break;
      }
    } catch (FbeException e) {
      error = e;
    }
    return answer(s, error, false, lists.toArray(new String[0]));
  }

  /** The message of the request's "type" (the package's own "Name", or "pkg.Name") and "json". */
  private static Message message(Session s, Map<String, Object> r) {
    String type = str(r, "type");
    if (!r.containsKey("json")) throw new IllegalArgumentException("request needs \"type\" and \"json\"");
    StructType st = null;
    if (type.contains(".")) {
      try {
        st = s.schema.struct(type);
      } catch (FbeException notThere) {
        st = null;
      }
    }
    if (st == null) st = s.schema.struct(s.pkg + "." + type);
    return st.fromJson(Json.write(r.get("json")));
  }

  /** "type" and "json" of m into out. */
  private static Map<String, Object> typed(Message m, Map<String, Object> out) {
    out.put("type", m.type().fullName());
    out.put("json", new Json.Raw(m.toJson()));
    return out;
  }

  static String statusName(FbeException e) {
    return FbeCore.fbe_status_name(fbe_status.swigToEnum(e.code()));
  }

  /**
   * The answer: ok or the error, what the session sent since the last answer (hex), the
   * lists the op reports, then the log lines if any (docs/TESTEE.md; the members in the
   * C testee's order).
   */
  private static Map<String, Object> answer(Session s, FbeException error, boolean hex, String... lists) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", error == null);
    if (error != null) {
      out.put("status", statusName(error));
      out.put("error", error.getMessage());
    }
    if (hex) out.put("hex", HEX.formatHex(s.wire.toByteArray()));
    s.wire.reset();
    for (String name : lists) {
      List<Object> items = name.equals("ended") ? s.ended : name.equals("notified") ? s.notified : s.items;
      out.put(name, new ArrayList<>(items));
      items.clear();
    }
    if (!s.log.isEmpty()) {
      out.put("log", new ArrayList<>(s.log));
      s.log.clear();
    }
    return out;
  }
}
