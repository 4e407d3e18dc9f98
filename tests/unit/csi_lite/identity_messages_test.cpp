// csi_lite's hand-written decoders against protobuf's own encoding of the
// same messages (csi/proto/csi.proto), and their log JSON against
// csi::StripSecrets.
#include "csi_lite/identity_messages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "csi/proto/csi.pb.h"
#include "csi/proto_sanitizer.h"
#include "tests/support/proto_writer.h"

namespace csi_lite {
namespace {

using testsupport::ProtoWriter;

TEST(IdentityMessagesTest, ProbeResponseReadyAbsentTrueOrFalse) {
  csi::v1::ProbeResponse absent, ready, not_ready;
  ready.mutable_ready()->set_value(true);
  not_ready.mutable_ready()->set_value(false);
  for (const auto& [message, want] :
       std::vector<std::pair<csi::v1::ProbeResponse, std::optional<bool>>>{
           {absent, std::nullopt}, {ready, true}, {not_ready, false}}) {
    auto decoded = DecodeProbeResponse(message.SerializeAsString());
    ASSERT_TRUE(decoded.ok()) << decoded.error().message;
    EXPECT_EQ(decoded->ready, want) << message.ShortDebugString();
    EXPECT_EQ(LogJson(*decoded), csi::StripSecrets(message)) << message.ShortDebugString();
  }
}

TEST(IdentityMessagesTest, PluginInfoWithManifest) {
  csi::v1::GetPluginInfoResponse message;
  message.set_name("hostpath.csi.k8s.io");
  message.set_vendor_version("v1.2<3>");
  (*message.mutable_manifest())["url"] = "https://example.com/?a=1&b=2";
  (*message.mutable_manifest())["a"] = "\xc3\xa9\xe2\x80\xa8";
  auto decoded = DecodePluginInfo(message.SerializeAsString());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->name, "hostpath.csi.k8s.io");
  EXPECT_EQ(decoded->vendor_version, "v1.2<3>");
  EXPECT_THAT(decoded->manifest,
              ::testing::ElementsAre(::testing::Pair("a", "\xc3\xa9\xe2\x80\xa8"),
                                     ::testing::Pair("url", "https://example.com/?a=1&b=2")));
  EXPECT_EQ(LogJson(*decoded), csi::StripSecrets(message));
  EXPECT_EQ(LogJson(PluginInfo{}), "{}");
}

TEST(IdentityMessagesTest, SkipsUnknownFieldsAndTakesTheLastOfARepeatedOne) {
  std::string bytes = ProtoWriter()
                          .Bytes(1, "first")
                          .Varint(7, 300)
                          .Fixed32(8, 1)
                          .Fixed64(9, 2)
                          .Bytes(10, "future")
                          .Bytes(1, "second")
                          .MapEntry(3, "k", "old")
                          .MapEntry(3, "k", "new")
                          .bytes();
  auto decoded = DecodePluginInfo(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->name, "second");
  EXPECT_THAT(decoded->manifest, ::testing::ElementsAre(::testing::Pair("k", "new")));

  // ready given twice: protobuf merges the messages, the later value wins.
  auto probe = DecodeProbeResponse(ProtoWriter()
                                       .Message(1, ProtoWriter().Varint(1, 1))
                                       .Message(1, ProtoWriter().Varint(2, 5))
                                       .bytes());
  ASSERT_TRUE(probe.ok()) << probe.error().message;
  EXPECT_EQ(probe->ready, true);
}

TEST(IdentityMessagesTest, MalformedBytesAreAnError) {
  const std::vector<std::string> malformed = {
      ProtoWriter().Tag(1, 2).RawVarint(10).Raw("short").bytes(),  // truncated string
      ProtoWriter().Varint(1, 1).bytes(),                          // name as a varint
      std::string("\x08\x80", 2),                                  // truncated varint (field 1)
      ProtoWriter().Tag(4, 3).bytes(),                             // a group
      ProtoWriter().Message(3, ProtoWriter().Tag(1, 2).RawVarint(9)).bytes(),  // bad map entry
  };
  for (const std::string& bytes : malformed) {
    auto decoded = DecodePluginInfo(bytes);
    EXPECT_FALSE(decoded.ok()) << ::testing::PrintToString(bytes);
  }
  auto probe = DecodeProbeResponse(ProtoWriter().Message(1, ProtoWriter().Bytes(1, "x")).bytes());
  ASSERT_FALSE(probe.ok());
  EXPECT_EQ(probe.error().message,
            "proto: cannot parse invalid wire-format data: wrong wire type 2");
}

}  // namespace
}  // namespace csi_lite
