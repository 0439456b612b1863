package org.libfbe;

import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.libfbe.internal.Walk;

/**
 * A server of a package's protocol (docs/CLIENT.md): the requests it is fed go to the
 * handler of their type, whose answer is sent as the reply, its {@code id} set to the
 * request's by the core (fbe_reply_prepare, which also refuses an answer that is not the
 * request's response or one of its rejects: TYPE).
 *
 * <pre>{@code
 * Server server = schema.server()
 *     .handle(schema.struct("NewOrder"), order -> accepted.newMessage().set("order", 7))
 *     .build(socket.getOutputStream());
 * server.readFrom(socket.getInputStream());
 * }</pre>
 *
 * <p>A handler returns the answer (a message of the response type or of a reject type),
 * or null to send nothing (it may answer later with {@link #reply}), or throws a
 * {@link RejectedException} made with the reject to send. {@link #handleAsync} takes a
 * handler returning a {@link CompletionStage} of the answer. A message with no handler
 * (a notification, a request type nobody handles) goes to the builder's
 * {@code onMessage}. Anything else a handler throws, and an answer the core refuses, goes
 * to the builder's {@code onError(request, error)}; without one it comes out of
 * {@link #feed} (the feed stops after that request; the bytes after it wait for the next
 * feed), or, for an asynchronous answer, to the uncaught-exception handler of the thread
 * that completed it.
 *
 * <p>Handlers run inside the feed, on its thread, with the server's lock held; threads,
 * output streams and lifetime: see {@link Peer}.
 */
public final class Server extends Peer {
  /** A request type's handler: its answer sent as the reply. */
  private interface Handler {
    void serve(Server server, Message request);
  }

  private final Map<StructType, Handler> handlers = new ConcurrentHashMap<>();
  private final Consumer<Message> onMessage;
  private final BiConsumer<Message, Throwable> onError;

  private Server(Builder b, Output output) {
    super(b.schema, SERVER, b.pkg, b.model, b.limits, 0, false, output, b.log, null);
    this.onMessage = b.onMessage;
    this.onError = b.onError;
    b.handlers.forEach(handlers::put);
  }

  /** How to make a server: {@link Schema#server()}. */
  public static final class Builder extends Peer.Builder<Builder> {
    private LogHook log;
    private Consumer<Message> onMessage;
    private BiConsumer<Message, Throwable> onError;
    private final Map<StructType, Handler> handlers = new ConcurrentHashMap<>();

    Builder(Schema schema) {
      super(schema);
    }




    /** The log hook: every message sent and received, as its text form. */
    public Builder log(LogHook log) {
      this.log = log;
      return this;
    }

    /** Gets every message received that no handler takes. */
    public Builder onMessage(Consumer<Message> onMessage) {
      this.onMessage = onMessage;
      return this;
    }

    /** Gets what a handler threw (but a RejectedException) and the answers the core refused, with their request. */
    public Builder onError(BiConsumer<Message, Throwable> onError) {
      this.onError = onError;
      return this;
    }

    /** {@link Server#handle}, before the server exists. */
    public Builder handle(StructType type, Function<Message, Message> handler) {
      handlers.put(checkRequest(schema, type), sync(handler));
      return this;
    }

    /** {@link Server#handleAsync}, before the server exists. */
    public Builder handleAsync(StructType type, Function<Message, ? extends CompletionStage<Message>> handler) {
      handlers.put(checkRequest(schema, type), async(handler));
      return this;
    }

    /** A server writing each frame to sink, inside the call that sends it. */
    public Server build(Consumer<byte[]> sink) {
      return new Server(this, Output.of(sink));
    }

    /** A server writing to out from a writer thread of its own, in the core's order (see {@link Peer}). */
    public Server build(OutputStream out) {
      return new Server(this, Output.of(out));
    }
  }

  private static StructType checkRequest(Schema schema, StructType type) {
    if (type == null) throw new FbeException(Status.ARGUMENT, "no request type");
    if (type.schema != schema)
      throw new FbeException(Status.TYPE, type.fullName() + " is a type of another schema than this server's");
    if (!type.isRequest())
      throw new FbeException(Status.TYPE, type.fullName() + " is not a request (no [request] in the schema)");
    return type;
  }

  private static Handler sync(Function<Message, Message> fn) {
    if (fn == null) throw new FbeException(Status.ARGUMENT, "no handler");
    return (server, request) -> {
      Message answer;
      try {
        answer = fn.apply(request);
      } catch (RejectedException r) {
        answer = r.reject();
      } catch (RuntimeException | Error e) {
        server.failed(request, e, false);
        return;
      }
      server.answer(request, answer, false);
    };
  }

  private static Handler async(Function<Message, ? extends CompletionStage<Message>> fn) {
    if (fn == null) throw new FbeException(Status.ARGUMENT, "no handler");
    return (server, request) -> {
      CompletionStage<Message> stage;
      try {
        stage = fn.apply(request);
      } catch (RejectedException r) {
        server.answer(request, r.reject(), false);
        return;
      } catch (RuntimeException | Error e) {
        server.failed(request, e, false);
        return;
      }
      if (stage == null) return;
      stage.whenComplete((answer, error) -> {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof RejectedException) server.answer(request, ((RejectedException) e).reject(), true);
        else if (e != null) server.failed(request, e, true);
        else server.answer(request, answer, true);
      });
    };
  }

  /** A handler's answer sent (nothing for null, or once the server is closed). */
  private void answer(Message request, Message answer, boolean later) {
    if (answer == null || (later && isClosed())) return;
    try {
      reply(request, answer);
    } catch (RuntimeException e) {
      failed(request, e, later);
    }
  }

  private void failed(Message request, Throwable e, boolean later) {
    BiConsumer<Message, Throwable> h = onError;
    if (h != null) {
      h.accept(request, e);
    } else if (later) {
      uncaught(e);
    } else if (e instanceof RuntimeException) {
      throw (RuntimeException) e;
    } else if (e instanceof Error) {
      throw (Error) e;
    } else {
      throw new CompletionException(e);
    }
  }

  /**
   * The handler of requests of {@code type} (a {@code [request]} type of this server's
   * schema, else TYPE): handler(request) returns the answer (a message of the request's
   * response type or of one of its reject types; null: nothing is sent) or throws a
   * {@link RejectedException} with the reject to send. Replaces an earlier handler of the
   * type. Returns this server.
   */
  public Server handle(StructType type, Function<Message, Message> handler) {
    handlers.put(checkRequest(schema, type), sync(handler));
    return this;
  }

  /**
   * As {@link #handle}, the answer given later: the handler returns a stage of it (null:
   * nothing), sent when it completes, from the thread that completes it.
   */
  public Server handleAsync(StructType type, Function<Message, ? extends CompletionStage<Message>> handler) {
    handlers.put(checkRequest(schema, type), async(handler));
    return this;
  }

  @Override
  void onMessage(Message m) {
    Handler h = handlers.get(m.type);
    if (h != null) {
      h.serve(this, m);
    } else {
      Consumer<Message> c = onMessage;
      if (c != null) c.accept(m);
    }
  }

  /**
   * Answers a request this server received with {@code reply}, a message of the request's
   * response type or of one of its reject types, given the request's {@code id} by the
   * core (fbe_reply_prepare) and sent.
   *
   * @throws FbeException TYPE when reply is neither (nothing is sent); ARGUMENT when the
   *     two have no field {@code id} of one type, or the server is closed; IO when the sink
   *     refused the frame (its exception is the cause)
   */
  public void reply(Message request, Message reply) {
    checkMessage(request, "the request");
    checkMessage(reply, "the reply");
    locked(() -> withTape(request, reply,
        (h, core, t) -> Walk.serverReply(h, core, this, request.type.index, reply.type.index, t.at(), t.caps())));
  }

  /** Sends any message of the protocol as it is (a notification to the client). */
  public void send(Message message) {
    sendMessage(message);
  }

  /**
   * Drops a partial frame received; from a handler, the feed stops after the request being
   * handled and the rest of its bytes are dropped (as a client's reset does).
   */
  public void reset() {
    locked(() -> call(h -> Walk.peerReset(h, this, null)));
  }
}
