//! The testee's answers: {"ok":true,...} or {"ok":false,"status":...,"error":...}.

/// A JSON string.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// An answer being built: members as raw JSON text, in order.
pub struct Reply {
    members: Vec<(String, String)>,
}

impl Reply {
    pub fn ok() -> Reply {
        Reply { members: vec![("ok".into(), "true".into())] }
    }

    /// A failure that is not the library's (a bad request): no status.
    pub fn fail(why: impl AsRef<str>) -> Reply {
        Reply { members: vec![("ok".into(), "false".into()), ("error".into(), quote(why.as_ref()))] }
    }

    /// The library's error: its status name and its text.
    pub fn error(e: fbe::Error) -> Reply {
        Reply {
            members: vec![
                ("ok".into(), "false".into()),
                ("status".into(), quote(e.status().name())),
                ("error".into(), quote(&e.to_string())),
            ],
        }
    }

    pub fn raw(mut self, name: &str, json: String) -> Reply {
        self.members.push((name.into(), json));
        self
    }

    pub fn string(self, name: &str, text: &str) -> Reply {
        self.raw(name, quote(text))
    }

    pub fn hex(self, name: &str, bytes: &[u8]) -> Reply {
        let mut s = String::with_capacity(bytes.len() * 2 + 2);
        s.push('"');
        for b in bytes {
            s.push_str(&format!("{b:02x}"));
        }
        s.push('"');
        self.raw(name, s)
    }

    pub fn finish(&self) -> String {
        let parts: Vec<String> = self.members.iter().map(|(k, v)| format!("{}:{}", quote(k), v)).collect();
        format!("{{{}}}", parts.join(","))
    }
}
