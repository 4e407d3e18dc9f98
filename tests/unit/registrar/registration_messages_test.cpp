// The registration messages encoded and decoded by hand
// (registrar/registration_messages.h), checked against protobuf's own code
// generated from the same .proto: what kubelet's gRPC sends and reads.
#include "registrar/registration_messages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "registrar/proto/pluginregistration.pb.h"

namespace registrar {
namespace {

TEST(RegistrationMessagesTest, EncodedPluginInfoParsesAsProtobufsOwn) {
  PluginInfo info{
      "CSIPlugin", "mock.csi.test", "/var/lib/kubelet/plugins/mock/csi.sock", {"1.0.0", ""}};
  pluginregistration::PluginInfo parsed;
  ASSERT_TRUE(parsed.ParseFromString(Encode(info)));
  EXPECT_EQ(parsed.type(), "CSIPlugin");
  EXPECT_EQ(parsed.name(), "mock.csi.test");
  EXPECT_EQ(parsed.endpoint(), "/var/lib/kubelet/plugins/mock/csi.sock");
  EXPECT_THAT(parsed.supported_versions(), ::testing::ElementsAre("1.0.0", ""));
  EXPECT_EQ(Encode(PluginInfo{}), "");
}

TEST(RegistrationMessagesTest, DecodesProtobufsPluginInfoSkippingUnknownFields) {
  pluginregistration::PluginInfo message;
  message.set_type("CSIPlugin");
  message.set_name("other.csi.test");
  message.set_endpoint("/x.sock");
  message.add_supported_versions("1.0.0");
  message.add_supported_versions("2.0.0");
  // Field 9 (varint 7) and field 10 (fixed32), which this decoder does not know.
  std::string bytes = message.SerializeAsString() + "\x48\x07" + "\x55\x01\x02\x03\x04";
  auto info = DecodePluginInfo(bytes);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->type, "CSIPlugin");
  EXPECT_EQ(info->name, "other.csi.test");
  EXPECT_EQ(info->endpoint, "/x.sock");
  EXPECT_THAT(info->supported_versions, ::testing::ElementsAre("1.0.0", "2.0.0"));
  EXPECT_EQ(LogJson(*info), R"({"endpoint":"/x.sock","name":"other.csi.test",)"
                            R"("supported_versions":["1.0.0","2.0.0"],"type":"CSIPlugin"})");
}

TEST(RegistrationMessagesTest, DecodesProtobufsRegistrationStatus) {
  pluginregistration::RegistrationStatus message;
  auto empty = DecodeRegistrationStatus(message.SerializeAsString());
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->plugin_registered);
  EXPECT_EQ(empty->error, "");

  message.set_plugin_registered(true);
  message.set_error("plugin validation failed");
  auto status = DecodeRegistrationStatus(message.SerializeAsString());
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_TRUE(status->plugin_registered);
  EXPECT_EQ(status->error, "plugin validation failed");
}

TEST(RegistrationMessagesTest, MalformedBytesAreAnError) {
  for (std::string bytes : {std::string("\x12\x05"
                                        "ab"),    // error: 5 bytes promised, 2 came
                            std::string("\x08"),  // plugin_registered: no varint
                            std::string("\x0a\x01"
                                        "x"),           // plugin_registered as bytes
                            std::string("\x00", 1)}) {  // field number 0
    auto status = DecodeRegistrationStatus(bytes);
    ASSERT_FALSE(status.ok()) << ::testing::PrintToString(bytes);
    EXPECT_THAT(status.error().message,
                ::testing::StartsWith("proto: cannot parse invalid wire-format data: "));
  }
  EXPECT_FALSE(DecodePluginInfo("\x10\x01").ok());  // name as a varint
  EXPECT_FALSE(DecodeEmpty("\x0a\x09"
                           "short")
                   .ok());
  EXPECT_TRUE(DecodeEmpty("\x08\x01").ok());  // an unknown field is no error
}

}  // namespace
}  // namespace registrar
