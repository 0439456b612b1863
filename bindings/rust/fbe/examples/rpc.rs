//! Requests and responses over TCP, and the request/response benchmark's Rust side
//! (benchmarks/rpc/README.md): a server or a client of schemas/exchange.fbe over a
//! loopback socket, on fbe::Server / fbe::Client (FBE_SCHEMAS: the schemas folder,
//! default ./schemas). `cargo run --release --example rpc -- server PORT_FILE`.
//!   rpc server PORT_FILE        listens on a free loopback port, writes it to PORT_FILE,
//!                               serves one connection until the client closes
//!   rpc client PORT N WINDOW    N NewOrder requests, WINDOW in flight; checks every one;
//!                               prints {"requests":N,"seconds":S,"ok":true}
//! The server's rule, the same in every language: a NewOrder of quantity q is accepted
//! with order = q, unless q is a multiple of 10, which is rejected with reason "q".
use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::Instant;

use fbe::{Client, ClientOptions, Model, Outcome, Schema, Server};

fn main() {
    let schemas = PathBuf::from(std::env::var_os("FBE_SCHEMAS").unwrap_or_else(|| "schemas".into()));
    let schema = Schema::load_with(schemas.join("exchange.fbe"), &[&schemas]).unwrap_or_else(|e| fail(&e));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["server", port_file] => serve(&schema, port_file),
        ["client", port, n, window] => call(&schema, port.parse().unwrap(), n.parse().unwrap(), window.parse().unwrap()),
        _ => {
            eprintln!("usage: rpc server PORT_FILE | rpc client PORT N WINDOW");
            2
        }
    };
    std::process::exit(code);
}

fn fail(e: &dyn std::fmt::Display) -> ! {
    eprintln!("rpc: {e}");
    std::process::exit(1)
}

fn serve(schema: &Schema, port_file: &str) -> i32 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap_or_else(|e| fail(&e));
    let port = listener.local_addr().unwrap().port();
    std::fs::write(port_file, format!("{port}\n")).unwrap_or_else(|e| fail(&e));
    let (mut socket, _) = listener.accept().unwrap_or_else(|e| fail(&e));
    socket.set_nodelay(true).unwrap();
    let accepted = schema.struct_type("OrderAccepted").unwrap();
    let reject = schema.struct_type("Reject").unwrap();
    let out = socket.try_clone().unwrap();
    let mut server = Server::new(schema, None, Model::Standard, std::io::BufWriter::new(out)).unwrap();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match socket.read(&mut buf) {
            Ok(0) => return 0,
            Ok(n) => n,
            Err(e) => fail(&e),
        };
        server.serve(&buf[..n]).unwrap_or_else(|e| fail(&e));
        for request in server.take_requests() {
            let q = request.get_f64("quantity").unwrap() as i64;
            let mut reply = if q % 10 == 0 {
                let mut r = reject.new_message().unwrap();
                r.set("reason", q.to_string()).unwrap();
                r
            } else {
                let mut r = accepted.new_message().unwrap();
                r.set("order", q).unwrap();
                r
            };
            server.reply(&request, &mut reply).unwrap_or_else(|e| fail(&e));
        }
        server.get_mut().flush().unwrap_or_else(|e| fail(&e));
    }
}

fn call(schema: &Schema, port: u16, n: u64, window: u64) -> i32 {
    let mut socket = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap_or_else(|e| fail(&e));
    socket.set_nodelay(true).unwrap();
    let out = std::io::BufWriter::new(socket.try_clone().unwrap());
    let mut client = Client::new(schema, None, ClientOptions::default(), out).unwrap();
    let new_order = schema.struct_type("NewOrder").unwrap();
    let (mut sent, mut done, mut wrong) = (0u64, 0u64, 0u64);
    let mut buf = vec![0u8; 64 * 1024];
    let t0 = Instant::now();
    while done < n {
        while sent < n && sent - done < window {
            sent += 1;
            let mut order = new_order.new_message().unwrap(); // a new id (uuid1) each
            order.set("quantity", sent as f64).unwrap();
            client.request(&order, sent, 0, 0).unwrap_or_else(|e| fail(&e));
        }
        client.get_mut().flush().unwrap_or_else(|e| fail(&e));
        let got = socket.read(&mut buf).unwrap_or_else(|e| fail(&e));
        if got == 0 {
            fail(&"the server closed the connection");
        }
        client.feed(&buf[..got]).unwrap_or_else(|e| fail(&e));
        for ended in client.take_ended() {
            let q = ended.token;
            let right = match &ended.outcome {
                Outcome::Responded(r) => q % 10 != 0 && r.get_i64("order") == Some(q as i64),
                Outcome::Rejected(..) => q % 10 == 0,
                _ => false,
            };
            wrong += u64::from(!right);
            done += 1;
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    println!("{{\"requests\":{n},\"seconds\":{seconds:.4},\"ok\":{}}}", wrong == 0);
    i32::from(wrong != 0)
}
