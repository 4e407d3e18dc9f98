// KindWords: one name or text of upstream's for each content kind - the
// single VolumeSnapshotContent's and the VolumeGroupSnapshotContent's - so
// that code written once for both kinds picks the right one
// (WordsFor<Content>). Each pair stands in one table row: the kinds' words
// side by side.
#pragma once

#include <string_view>
#include <type_traits>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"

namespace snapshotter {

struct KindWords {
  std::string_view snapshot;
  std::string_view group;
};

template <class Content>
constexpr std::string_view WordsFor(const KindWords& words) {
  if constexpr (std::is_same_v<Content, kube::VolumeGroupSnapshotContent>) {
    return words.group;
  } else {
    return words.snapshot;
  }
}

}  // namespace snapshotter
