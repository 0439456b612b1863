//! Memory back where it was after a million cycles (encode, decode, views; JSON, the
//! text form, a deep copy and errors every tenth) (its own test binary: the count is
//! process-wide, and the other tests run in parallel threads).
use fbe::{Model, Schema};

#[test]
fn memory_is_back_after_a_million_cycles() {
    let before = fbe::memory_in_use();
    {
        let schema = Schema::load_package("proto", &[std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../schemas")]).unwrap();
        let order = schema.struct_type("Order").unwrap();
        let mut m = order.new_message().unwrap();
        m.set("symbol", "EURUSD").unwrap();
        for i in 0..1_000_000i64 {
            m.set("id", i).unwrap();
            let bytes = m.encode(Model::Final).unwrap();
            let back = order.decode(&bytes, Model::Final).unwrap();
            assert_eq!(back.get_i64("id"), Some(i));
            let view = order.view(&bytes, Model::Final).unwrap();
            assert_eq!(view.field("symbol").unwrap().get_str().unwrap(), "EURUSD");
            if i % 10 == 0 {
                let json = back.to_json().unwrap();
                assert_eq!(order.from_json(&json).unwrap(), back);
                assert!(back.to_string().starts_with("Order("));
                assert!(order.decode(&bytes[..bytes.len() - 1], Model::Final).is_err());
                assert!(m.clone().set("symbl", "x").is_err());
            }
        }
        let _ = order.decode(&[1, 2, 3], Model::Final).unwrap_err();
    }
    assert_eq!(fbe::memory_in_use(), before);
}

