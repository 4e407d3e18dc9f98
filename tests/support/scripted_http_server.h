// ScriptedHttpServer: a plain-HTTP server on 127.0.0.1 that answers each
// request with the next scripted response and records what it received. It
// stands in for the API server only where the real one cannot be made to
// misbehave on demand: 429 with Retry-After, 5xx, non-Status error bodies,
// garbage or truncated watch streams.
//
// One connection is served at a time. A response closes its connection unless
// scripted keep_alive (then it carries a Content-Length and the server waits
// on that connection for the next request), so a body may be streamed without
// a length and end at close.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace testsupport {

struct ScriptedResponse {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::vector<std::string> body_chunks;  // written one by one (with a flush between)
  bool keep_alive = false;
  // Read the request, then close the connection without a byte of answer.
  bool drop_without_answer = false;
};

struct RecordedRequest {
  std::string method;
  std::string target;                          // path + query
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  int connection = 0;  // which accepted connection carried it, counting from 1
};

class ScriptedHttpServer {
 public:
  ScriptedHttpServer();  // listens on a free port; throws std::runtime_error if it cannot
  ~ScriptedHttpServer();

  std::string url() const;  // http://127.0.0.1:<port>
  void Script(ScriptedResponse response);
  std::vector<RecordedRequest> requests() const;
  // Closes the kept-alive connection the server waits on, as servers close
  // idle ones; false if there was none within a generous bound.
  bool CloseIdleConnection();

 private:
  void Serve();
  // Answers one request; whether the connection stays open for another.
  bool Handle(int fd, int connection);
  // Waits for the next request on kept-alive `fd`; false when it should close.
  bool AwaitNextRequest(int fd);

  int listen_fd_ = -1;
  int port_ = 0;
  mutable std::mutex mu_;  // guards script_, requests_ and the idle-close handshake
  std::condition_variable idle_closed_;
  std::deque<ScriptedResponse> script_;
  std::vector<RecordedRequest> requests_;
  bool close_idle_requested_ = false;
  std::jthread thread_;
};

// A JSON body of a meta/v1 Status object, as the API server sends for errors.
std::string StatusBody(int code, std::string_view reason, std::string_view message);

}  // namespace testsupport
