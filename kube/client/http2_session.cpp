#include "kube/client/http2_session.h"

#include <fmt/format.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "kube/client/http2_stream.h"

namespace kube {
namespace {

// client-go's window sizes (golang.org/x/net/http2's transport): 4 MiB per
// stream, 1 GiB for the connection, so one big list does not stall the rest.
constexpr int32_t kStreamWindow = 4 << 20;
constexpr int32_t kConnectionWindow = 1 << 30;
constexpr size_t kReadChunk = 16 * 1024;
// Records read before the callers they are for hear of them.
constexpr int kRecordsPerRound = 4;
// Frames are gathered up to this many bytes before the socket gets them.
constexpr size_t kWriteBatch = 64 * 1024;

}  // namespace

base::Result<std::shared_ptr<Http2Session>> Http2Session::Start(
    std::unique_ptr<Connection> connection, const Http2Options& options) {
  int wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0) return base::Error::Transport(std::string("eventfd: ") + std::strerror(errno));
  std::shared_ptr<Http2Session> session(new Http2Session(std::move(connection), options, wake_fd));

  nghttp2_session_callbacks* callbacks = NewCallbacks();
  nghttp2_option* option = nullptr;
  if (callbacks == nullptr || nghttp2_option_new(&option) != 0) {
    nghttp2_session_callbacks_del(callbacks);
    return base::Error::Transport("HTTP/2: out of memory");
  }
  nghttp2_option_set_no_auto_window_update(option, 1);
  int rc = nghttp2_session_client_new2(&session->session_, callbacks, session.get(), option);
  nghttp2_session_callbacks_del(callbacks);
  nghttp2_option_del(option);
  if (rc != 0) return base::Error::Transport(std::string("HTTP/2: ") + nghttp2_strerror(rc));

  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, kStreamWindow},
  };
  rc = nghttp2_submit_settings(session->session_, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  if (rc == 0) {
    rc = nghttp2_session_set_local_window_size(session->session_, NGHTTP2_FLAG_NONE, 0,
                                               kConnectionWindow);
  }
  if (rc != 0) return base::Error::Transport(std::string("HTTP/2: ") + nghttp2_strerror(rc));
  {
    std::lock_guard lock(session->mu_);
    session->Flush();
    if (!session->failure_.empty()) return base::Error::Transport(session->failure_);
  }
  session->thread_ = std::thread([raw = session.get()] { raw->Run(); });
  return session;
}

Http2Session::Http2Session(std::unique_ptr<Connection> connection, const Http2Options& options,
                           int wake_fd)
    : read_idle_(options.read_idle),
      ping_timeout_(options.ping_timeout),
      wake_fd_(wake_fd),
      connection_(std::move(connection)),
      last_read_(SteadyClock::now()) {}

Http2Session::~Http2Session() {
  Close();
  if (thread_.joinable()) thread_.join();
  nghttp2_session_del(session_);
  ::close(wake_fd_);
}

void Http2Session::Close() {
  std::lock_guard lock(mu_);
  closing_ = true;
  Fail("the client closed the connection");
  Wake();
}

bool Http2Session::accepting() const {
  std::lock_guard lock(mu_);
  return live() && !goaway_ && !closing_;
}

std::shared_ptr<Http2Session::Stream> Http2Session::Find(int32_t stream_id) {
  auto it = streams_.find(stream_id);
  return it == streams_.end() ? nullptr : it->second;
}

void Http2Session::Wake() {
  uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void Http2Session::Fail(const std::string& why) {
  if (!live()) return;
  failure_ = why;
  Wake();  // the session's thread closes the connection
  for (auto& [id, stream] : streams_) {
    stream->closed = true;
    stream->failure = why;
    if (!stream->headers_sent) stream->unprocessed = true;
    stream->changed.notify_all();
  }
  streams_.clear();
}

void Http2Session::Flush() {
  while (live()) {
    if (out_.size() - out_written_ < kWriteBatch) {
      const uint8_t* data = nullptr;
      ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) return Fail(std::string("HTTP/2: ") + nghttp2_strerror(static_cast<int>(n)));
      if (n > 0) {
        if (out_written_ == out_.size()) out_.clear(), out_written_ = 0;
        out_.append(Http2View(data, static_cast<size_t>(n)));
        continue;
      }
    }
    if (out_written_ == out_.size()) {
      out_.clear();
      out_written_ = 0;
      write_wants_ = 0;
      return;
    }
    auto attempt = connection_->TryWrite(std::string_view(out_).substr(out_written_));
    if (!attempt.ok()) return Fail(attempt.error().message);
    if (attempt->moved == 0) {
      write_wants_ = attempt->wants;
      return;
    }
    out_written_ += attempt->moved;
    write_wants_ = 0;
  }
}

bool Http2Session::ReadOnce() {
  char buffer[kReadChunk];
  auto attempt = connection_->TryRead(buffer, sizeof buffer);
  if (!attempt.ok()) return Fail(attempt.error().message), false;
  if (attempt->closed) return Fail("the server closed the connection"), false;
  if (attempt->moved == 0) return false;
  last_read_ = SteadyClock::now();
  ssize_t used =
      nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(buffer), attempt->moved);
  if (used < 0) {
    return Fail(std::string("HTTP/2: ") + nghttp2_strerror(static_cast<int>(used))), false;
  }
  return true;
}

void Http2Session::Signal(const std::shared_ptr<Stream>& stream) {
  if (stream->signalled) return;
  stream->signalled = true;
  signalled_.push_back(stream);
}

void Http2Session::CheckHealth(SteadyClock::time_point now) {
  if (read_idle_.count() == 0) return;
  if (ping_sent_) {
    if (now - *ping_sent_ >= ping_timeout_) {
      Fail(fmt::format("the server did not answer a PING within {} ms", ping_timeout_.count()));
    }
  } else if (now - last_read_ >= read_idle_) {
    if (nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, nullptr) == 0) ping_sent_ = now;
  }
}

void Http2Session::Run() {
  std::unique_lock lock(mu_);
  bool more_to_read = false;  // the last round stopped at its cap, not at an empty socket
  while (live()) {
    Flush();
    if (!live()) break;
    if (!nghttp2_session_want_read(session_) && !nghttp2_session_want_write(session_) &&
        out_.empty()) {
      Fail("the server ended the connection (GOAWAY)");
      break;
    }
    int timeout_ms = -1;  // no health check: until something happens
    if (more_to_read) {
      timeout_ms = 0;  // OpenSSL may hold the rest already, where poll cannot see it
    } else if (read_idle_.count() > 0) {
      const auto next_check = ping_sent_ ? *ping_sent_ + ping_timeout_ : last_read_ + read_idle_;
      timeout_ms = static_cast<int>(std::clamp<int64_t>(
          std::chrono::ceil<std::chrono::milliseconds>(next_check - SteadyClock::now()).count(), 0,
          1 << 30));
    }
    pollfd fds[2] = {{connection_->fd(), static_cast<short>(POLLIN | write_wants_), 0},
                     {wake_fd_, POLLIN, 0}};
    // The callers whose streams changed are notified only now, with the lock
    // free and this thread on its way to poll: one woken while this thread
    // still held the lock, or took it again for the next record, would block
    // on it at once (two context switches instead of one).
    notifying_.swap(signalled_);
    for (auto& stream : notifying_) stream->signalled = false;
    lock.unlock();
    for (auto& stream : notifying_) stream->changed.notify_all();
    notifying_.clear();
    int ready = ::poll(fds, 2, timeout_ms);
    lock.lock();
    if (ready < 0 && errno != EINTR) {
      Fail(std::string("poll: ") + std::strerror(errno));
      break;
    }
    if (fds[1].revents != 0) {
      uint64_t count;
      [[maybe_unused]] ssize_t n = ::read(wake_fd_, &count, sizeof count);
    }
    const bool readable = fds[0].revents != 0 || more_to_read;
    more_to_read = false;
    if (readable) {
      // A few records a round, so that a streamed body's caller gets its
      // bytes while the rest still arrive.
      int records = 0;
      while (live() && ReadOnce()) {
        if (++records == kRecordsPerRound) {
          more_to_read = true;
          break;
        }
      }
    }
    if (live()) CheckHealth(SteadyClock::now());
  }
  // Streams the last round closed (a GOAWAY's refusals) before the loop ended.
  for (auto& stream : signalled_) stream->changed.notify_all();
  signalled_.clear();
  connection_.reset();  // here, where no poll can still be watching its descriptor
}

void Http2Session::Abandon(Stream& stream) {
  if (!live()) return;
  nghttp2_session_consume(session_, stream.id, stream.pending.size());
  stream.pending.clear();
  if (!stream.closed) {
    // The stream stays in streams_ (its request body with it) until nghttp2
    // closes it; bytes still in flight are released as they arrive.
    stream.abandoned = true;
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id, NGHTTP2_CANCEL);
  }
  Flush();
  Wake();  // polls for what Flush could not write, notifies what it closed
}

base::Result<HttpResponse> Http2Session::Exchange(
    const std::vector<Header>& headers, std::string_view body,
    const std::function<bool(std::string_view)>* on_data,
    const std::function<void(const ResponseHead&)>& on_head,
    std::optional<SteadyClock::time_point> deadline, std::stop_token stop, bool& unprocessed) {
  unprocessed = false;
  std::vector<nghttp2_nv> fields;
  fields.reserve(headers.size());
  for (const auto& [name, value] : headers) {
    fields.push_back({const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(name.data())),
                      const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(value.data())),
                      name.size(), value.size(), NGHTTP2_NV_FLAG_NONE});
  }
  auto stream = std::make_shared<Stream>();
  stream->request_body = body;
  stream->wants_stream = on_data != nullptr;

  // A stop wakes the wait below. Declared before `lock`, so that it is
  // destroyed with mu_ free: its destructor waits for a callback under way,
  // which takes mu_.
  std::stop_callback wake_on_stop(stop, [this, raw = stream.get()] {
    std::lock_guard stop_lock(mu_);
    raw->changed.notify_all();
  });
  std::unique_lock lock(mu_);
  if (!live() || goaway_ || closing_) {
    unprocessed = true;
    return base::Error::Transport(failure_.empty() ? "the connection is closing" : failure_);
  }
  nghttp2_data_provider provider{};
  provider.source.ptr = stream.get();
  provider.read_callback = &Stream::ReadBody;
  stream->id = nghttp2_submit_request(session_, nullptr, fields.data(), fields.size(),
                                      body.empty() ? nullptr : &provider, nullptr);
  if (stream->id < 0) {
    if (stream->id == NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE) {
      goaway_ = true;  // stream ids ran out: the next request takes a new connection
      unprocessed = true;
    }
    return base::Error::Transport(std::string("HTTP/2: ") + nghttp2_strerror(stream->id));
  }
  streams_[stream->id] = stream;
  Flush();
  if (write_wants_ != 0 || !signalled_.empty()) Wake();

  bool head_shown = false;
  while (true) {
    auto ready = [&] {
      return stream->closed || !stream->pending.empty() || (stream->streaming && !head_shown);
    };
    // std::condition_variable, not _any: the latter's notify holds an inner
    // mutex that the woken caller then blocks on, a second context switch.
    const auto ready_or_stopped = [&] { return ready() || stop.stop_requested(); };
    if (deadline) {
      stream->changed.wait_until(lock, *deadline, ready_or_stopped);
    } else {
      stream->changed.wait(lock, ready_or_stopped);
    }
    if (!ready()) {
      const bool head_complete = stream->head_complete;
      const int status = stream->head.status;
      Abandon(*stream);
      if (stop.stop_requested()) {
        if (!head_complete) return base::Error::Transport("stopped before the response");
        HttpResponse stopped;
        stopped.status = status;
        return stopped;
      }
      return base::Error::Transport("timed out");
    }
    if (stream->streaming && !head_shown) {
      head_shown = true;
      if (on_head) {
        ResponseHead head = stream->head;
        lock.unlock();
        on_head(head);
        lock.lock();
      }
      continue;
    }
    if (!stream->pending.empty()) {
      std::string chunk = std::move(stream->pending);
      stream->pending.clear();
      lock.unlock();
      const bool more = (*on_data)(chunk);
      lock.lock();
      if (live()) {
        nghttp2_session_consume(session_, stream->id, chunk.size());
        Flush();
        if (write_wants_ != 0 || !signalled_.empty()) Wake();
      }
      if (!more) {
        Abandon(*stream);
        HttpResponse declined;
        declined.status = stream->head.status;
        return declined;
      }
      continue;
    }
    // Closed, and every streamed byte handed over.
    unprocessed = stream->unprocessed;
    if (!stream->failure.empty()) return base::Error::Transport(stream->failure);
    if (stream->error_code != NGHTTP2_NO_ERROR || !stream->head_complete) {
      return base::Error::Transport(fmt::format("the server reset the stream ({})",
                                                nghttp2_http2_strerror(stream->error_code)));
    }
    HttpResponse response;
    response.status = stream->head.status;
    response.retry_after_seconds = stream->head.retry_after_seconds;
    if (!stream->streaming) response.body = std::move(stream->body);
    return response;
  }
}

}  // namespace kube
