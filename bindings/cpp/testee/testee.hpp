// fbe-cpp-testee: the runner's protocol (docs/TESTEE.md) over fbe.hpp alone. What the
// request handlers share: the loaded schemas, the answer being written, the sessions.
#ifndef FBE_CPP_TESTEE_HPP
#define FBE_CPP_TESTEE_HPP

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fbe/fbe.hpp"
#include "json.hpp"

namespace testee {

// A request the runner got wrong (no fbe status in the answer).
struct bad_request : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct session {
  virtual ~session() = default;
  // Answers op for this session, or false when the session has no such op.
  virtual bool handle(const std::string &op, const json &req, std::string &out) = 0;
};

class state {
 public:
  ~state() { forget(); }
  void load(const json &req);
  void forget();
  fbe::schema package(const std::string &name);
  fbe::struct_type type_of(const json &req);

  std::map<std::string, std::unique_ptr<session>> sessions;

 private:
  std::vector<std::string> includes_;
  std::string packages_dir_;  // the load's schema texts, searched first
  std::vector<std::string> package_files_;
  std::map<std::string, fbe::schema> cache_;
};

// Request members.
const json &member(const json &req, std::string_view name);  // bad_request when absent
std::string text_member(const json &req, std::string_view name);
fbe::model model_of(const json &req);
std::vector<std::uint8_t> hex_of(const json &req);
std::string hex(fbe::bytes_view bytes);

// The answers.
std::string fail(const fbe::error &e);  // {"ok":false,"status":...,"error":...}

// encode with "native": true: the value made through fbe.hpp's typed setters.
fbe::message native_build(const fbe::struct_type &type, const json &value);

// client, server, proxy and their ops; false when op is none of them.
bool conversation(state &st, const std::string &op, const json &req, std::string &out);

}  // namespace testee

#endif
