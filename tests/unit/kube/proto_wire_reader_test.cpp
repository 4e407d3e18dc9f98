// The protobuf wire reader (kube/api/proto/wire_reader.h): every wire type,
// unknown fields skipped, and bad bytes refused with a clear error.
#include <gtest/gtest.h>

#include <string>

#include "kube/api/decode_error.h"
#include "kube/api/proto/wire_reader.h"
#include "tests/support/proto_writer.h"

namespace kube::proto {
namespace {

using testsupport::ProtoWriter;

// The message of the DecodeError that reading all fields of `bytes` (skipping each) throws.
std::string SkipAllError(std::string_view bytes) {
  try {
    WireReader in(bytes);
    while (in.Next()) in.Skip();
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "";
}

TEST(ProtoWireReader, ReadsEachWireType) {
  auto bytes = ProtoWriter()
                   .Varint(1, 300)
                   .Fixed64(2, 0x0102030405060708)
                   .Bytes(3, "hello")
                   .Fixed32(4, 0xdeadbeef)
                   .Varint(5, static_cast<uint64_t>(-5))
                   .bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.field(), 1u);
  EXPECT_EQ(in.wire_type(), WireType::kVarint);
  EXPECT_EQ(in.ReadVarint(), 300u);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadFixed64(), 0x0102030405060708u);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadBytes(), "hello");
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadFixed32(), 0xdeadbeefu);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadInt64(), -5);
  EXPECT_FALSE(in.Next());
}

TEST(ProtoWireReader, Int32KeepsTheLowBitsOfANegativeTenByteVarint) {
  auto bytes = ProtoWriter().Varint(1, static_cast<uint64_t>(int64_t{-7})).bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadInt32(), -7);
}

TEST(ProtoWireReader, LargestVarintReads) {
  auto bytes = ProtoWriter().Varint(1, UINT64_MAX).bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadVarint(), UINT64_MAX);
}

TEST(ProtoWireReader, SkipsUnknownFieldsOfEveryWireTypeIncludingNestedGroups) {
  auto bytes = ProtoWriter()
                   .Varint(10, 1)
                   .Fixed64(11, 2)
                   .Bytes(12, "x")
                   .Fixed32(13, 3)
                   .Tag(14, 3)  // group 14 { varint; group 15 { bytes } }
                   .Varint(1, 5)
                   .Tag(15, 3)
                   .Bytes(2, "in")
                   .Tag(15, 4)
                   .Tag(14, 4)
                   .Bytes(1, "kept")
                   .bytes();
  WireReader in(bytes);
  std::string_view kept;
  while (in.Next()) {
    if (in.field() == 1) {
      kept = in.ReadBytes();
    } else {
      in.Skip();
    }
  }
  EXPECT_EQ(kept, "kept");
}

TEST(ProtoWireReader, NestedMessageReadsItsOwnBytesOnly) {
  auto bytes = ProtoWriter().Message(1, ProtoWriter().Varint(1, 7)).Varint(2, 8).bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  WireReader nested = in.ReadMessage();
  ASSERT_TRUE(nested.Next());
  EXPECT_EQ(nested.ReadVarint(), 7u);
  EXPECT_FALSE(nested.Next());
  ASSERT_TRUE(in.Next());
  EXPECT_EQ(in.ReadVarint(), 8u);
}

TEST(ProtoWireReader, TruncatedValuesAreRefused) {
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 0).Raw("\x80").bytes()), "truncated varint");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 1).Raw("1234").bytes()), "truncated fixed64");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 5).Raw("12").bytes()), "truncated fixed32");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 2).RawVarint(5).Raw("abc").bytes()),
            "field 1: length 5 runs past the end of its message (3 bytes left)");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 2).bytes()), "truncated length");
  EXPECT_EQ(SkipAllError(std::string("\x88", 1)), "truncated tag");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(3, 3).Varint(1, 1).bytes()),
            "truncated group of field 3");
}

TEST(ProtoWireReader, VarintsBeyondTenBytesOr64BitsAreRefused) {
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 0).Raw(std::string(10, '\xff')).Raw("\x01").bytes()),
            "varint overflows 64 bits");
  // An eleventh byte would follow: the tenth has its continuation bit set.
  EXPECT_EQ(
      SkipAllError(ProtoWriter().Tag(1, 0).Raw(std::string(9, '\x80')).Raw("\x80\x00").bytes()),
      "varint overflows 64 bits");
}

TEST(ProtoWireReader, NestedLengthRunningPastItsParentIsRefused) {
  // The parent holds 3 bytes; the nested field claims 10.
  auto inner = ProtoWriter().Tag(1, 2).RawVarint(10).Raw("a");
  auto bytes = ProtoWriter().Message(1, inner).Raw("0123456789").bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  WireReader nested = in.ReadMessage();
  ASSERT_TRUE(nested.Next());
  try {
    nested.ReadBytes();
    FAIL() << "the nested length was accepted";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "field 1: length 10 runs past the end of its message (1 bytes left)");
  }
}

TEST(ProtoWireReader, BadTagsAreRefused) {
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(1, 6).bytes()), "field 1: wire type 6 does not exist");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(2, 7).bytes()), "field 2: wire type 7 does not exist");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(0, 0).RawVarint(1).bytes()),
            "field number 0 out of range");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(4, 4).bytes()),
            "field 4: end-group without a start-group");
  EXPECT_EQ(SkipAllError(ProtoWriter().Tag(4, 3).Tag(5, 4).bytes()),
            "end-group of field 5 closes the group of field 4");
}

TEST(ProtoWireReader, DeeplyNestedGroupsAreRefusedNotRecursed) {
  ProtoWriter deep;
  for (int i = 0; i < 1000; ++i) deep.Tag(1, 3);
  EXPECT_EQ(SkipAllError(deep.bytes()), "groups nested too deep");
}

TEST(ProtoWireReader, ValueOfTheWrongWireTypeIsRefused) {
  auto bytes = ProtoWriter().Varint(1, 3).bytes();
  WireReader in(bytes);
  ASSERT_TRUE(in.Next());
  try {
    in.ReadBytes();
    FAIL() << "a varint read as bytes";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "field 1: varint value where a length-delimited value is expected");
  }
}

}  // namespace
}  // namespace kube::proto
