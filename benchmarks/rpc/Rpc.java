import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.libfbe.Client;
import org.libfbe.Fbe;
import org.libfbe.Message;
import org.libfbe.RejectedException;
import org.libfbe.Schema;
import org.libfbe.Server;
import org.libfbe.StructType;

/**
 * The request/response benchmark's Java side (benchmarks/rpc/README.md): a server or a
 * client of schemas/exchange.fbe over a TCP loopback socket, on Server / Client.
 *   java -cp fbe.jar Rpc.java server PORT_FILE      listens on a free loopback port, writes
 *                                                   it to PORT_FILE, serves one connection
 *   java -cp fbe.jar Rpc.java client PORT N WINDOW  N NewOrder requests, WINDOW in flight;
 *                                                   checks every one; prints {"requests":N,...}
 * The server's rule, the same in every language: a NewOrder of quantity q is accepted
 * with order = q, unless q is a multiple of 10, which is rejected with reason "q".
 */
public class Rpc {
  public static void main(String[] args) throws Exception {
    Path schemas = Path.of(System.getenv().getOrDefault("FBE_SCHEMAS", "schemas"));
    try (Schema schema = Fbe.load(schemas.resolve("exchange.fbe"), List.of(schemas))) {
      if (args.length == 2 && args[0].equals("server")) {
        serve(schema, Path.of(args[1]));
      } else if (args.length == 4 && args[0].equals("client")) {
        System.exit(call(schema, Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3])));
      } else {
        System.err.println("usage: Rpc server PORT_FILE | Rpc client PORT N WINDOW");
        System.exit(2);
      }
    }
  }

  static void serve(Schema schema, Path portFile) throws IOException {
    StructType accepted = schema.struct("OrderAccepted"), reject = schema.struct("Reject");
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Files.writeString(portFile, listener.getLocalPort() + "\n");
      try (Socket socket = listener.accept()) {
        socket.setTcpNoDelay(true);
        try (Server server = schema.server()
            .handle(schema.struct("NewOrder"), order -> {
              long q = (long) order.getDouble("quantity");
              if (q % 10 == 0) throw new RejectedException(reject.newMessage().set("reason", Long.toString(q)));
              return accepted.newMessage().set("order", q);
            })
            .build(socket.getOutputStream())) {
          server.readFrom(socket.getInputStream());
        }
      }
    }
  }

  static int call(Schema schema, int port, int n, int window) throws Exception {
    StructType newOrder = schema.struct("NewOrder");
    AtomicLong wrong = new AtomicLong();
    Semaphore room = new Semaphore(window);
    try (Socket socket = new Socket()) {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      try (Client client = schema.client().build(socket.getOutputStream())) {
        client.startReading(socket.getInputStream());
        long t0 = System.nanoTime();
        CompletableFuture<?>[] all = new CompletableFuture<?>[n];
        for (int i = 1; i <= n; i++) {
          long q = i;
          room.acquire();
          all[i - 1] = client.request(newOrder.newMessage().set("quantity", (double) q)).handle((response, error) -> {
            Throwable cause = error != null && error.getCause() != null ? error.getCause() : error;
            boolean right = q % 10 == 0 ? cause instanceof RejectedException
                                        : response != null && response.getLong("order") == q;
            if (!right) wrong.incrementAndGet();
            room.release();
            return null;
          });
        }
        CompletableFuture.allOf(all).join();
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("{\"requests\":%d,\"seconds\":%.4f,\"ok\":%s}%n", n, seconds, wrong.get() == 0);
      }
    }
    return wrong.get() == 0 ? 0 : 1;
  }
}
