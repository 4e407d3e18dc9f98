// Minimal valid API objects for integration tests and benchmarks.
#pragma once

#include <string>
#include <vector>

#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube::testobjects {

// A CSI PV of `driver`; the volume handle defaults to "<name>-handle".
inline PersistentVolume CsiPv(const std::string& name, const std::string& driver,
                              const std::string& handle = "",
                              std::vector<std::string> access_modes = {"ReadWriteOnce"}) {
  PersistentVolume pv;
  pv.metadata.name = name;
  pv.spec.capacity_storage = "1Gi";
  pv.spec.access_modes = std::move(access_modes);
  pv.spec.persistent_volume_reclaim_policy = "Retain";
  CSIPersistentVolumeSource csi;
  csi.driver = driver;
  csi.volume_handle = handle.empty() ? name + "-handle" : handle;
  pv.spec.source = csi;
  return pv;
}

inline VolumeAttachment Va(const std::string& name, const std::string& driver,
                           const std::string& pv, const std::string& node) {
  VolumeAttachment va;
  va.metadata.name = name;
  va.spec.attacher = driver;
  va.spec.node_name = node;
  va.spec.source.persistent_volume_name = pv;
  return va;
}

inline CSINode Node(const std::string& name, const std::string& driver,
                    const std::string& node_id) {
  CSINode node;
  node.metadata.name = name;
  CSINodeDriver d;
  d.name = driver;
  d.node_id = node_id;
  node.spec.drivers.push_back(d);
  return node;
}

}  // namespace kube::testobjects
