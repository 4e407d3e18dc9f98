#include "migration/storage_class.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "migration/allowed_topologies.h"
#include "migration/ascii.h"
#include "migration/aws_ebs.h"
#include "migration/azure_disk.h"
#include "migration/cinder.h"
#include "migration/drivers.h"
#include "migration/gce_pd.h"
#include "migration/go_text.h"
#include "migration/portworx.h"
#include "migration/split.h"
#include "migration/vsphere_volume.h"

namespace migration {
namespace {

// What the translators of GCE PD, EBS, Azure Disk and Cinder differ in
// (docs/migration.md §8.1).
struct ZonalRules {
  std::string_view topology_key;
  bool renames_fs_type;       // fsType -> csi.storage.k8s.io/fstype
  bool zone_parameters;       // zone/zones -> allowedTopologies
  bool allows_iops_increase;  // iopsPerGB adds allowautoiopspergbincrease=true
};

constexpr ZonalRules kGcePdRules{kGceTopologyKey, true, true, false};
constexpr ZonalRules kAwsEbsRules{kEbsTopologyKey, true, true, true};
constexpr ZonalRules kAzureDiskRules{kAzureDiskTopologyKey, false, true, false};
constexpr ZonalRules kCinderRules{kCinderTopologyKey, true, false, false};

// Parameter keys compare in any case; a kept parameter keeps its key as
// written. Keys equal but for case compete: the last in key order wins.
base::Result<kube::StorageClass> TranslateZonalStorageClass(kube::StorageClass storage_class,
                                                            const ZonalRules& rules) {
  kube::StringMap parameters;
  std::vector<kube::TopologySelectorTerm> from_zones;
  for (const auto& [key, value] : storage_class.parameters) {
    std::string name = LowerAscii(key);
    if (rules.renames_fs_type && name == "fstype") {
      parameters["csi.storage.k8s.io/fstype"] = value;
    } else if (rules.zone_parameters && name == "zone") {
      from_zones = ZoneTopologyTerms(rules.topology_key, {value});
    } else if (rules.zone_parameters && name == "zones") {
      from_zones = ZoneTopologyTerms(rules.topology_key, Split(value, ","));
    } else {
      parameters[key] = value;
      // Lets the driver raise IOPS to its minimum, as the in-tree plugin did.
      if (rules.allows_iops_increase && name == "iopspergb") {
        parameters["allowautoiopspergbincrease"] = "true";
      }
    }
  }
  if (!from_zones.empty() && !storage_class.allowed_topologies.empty()) {
    return base::Error("cannot simultaneously set allowed topologies and zone/zones parameters");
  }
  if (!from_zones.empty()) {
    storage_class.allowed_topologies = std::move(from_zones);
  } else {
    RenameZoneKeys(storage_class.allowed_topologies, rules.topology_key);
  }
  storage_class.parameters = std::move(parameters);
  return storage_class;
}

base::Result<kube::StorageClass> TranslateAzureDiskStorageClass(kube::StorageClass storage_class) {
  auto translated = TranslateZonalStorageClass(std::move(storage_class), kAzureDiskRules);
  if (translated.ok()) ClearUnzonedAzureDiskValues(translated->allowed_topologies);
  return translated;
}

using StorageClassTranslator = base::Result<kube::StorageClass> (*)(kube::StorageClass);

constexpr std::array<std::pair<std::string_view, StorageClassTranslator>, 7>
    kStorageClassTranslators = {{
        {kGcePdPlugin,
         [](kube::StorageClass sc) {
           return TranslateZonalStorageClass(std::move(sc), kGcePdRules);
         }},
        {kAwsEbsPlugin,
         [](kube::StorageClass sc) {
           return TranslateZonalStorageClass(std::move(sc), kAwsEbsRules);
         }},
        {kCinderPlugin,
         [](kube::StorageClass sc) {
           return TranslateZonalStorageClass(std::move(sc), kCinderRules);
         }},
        {kAzureDiskPlugin, TranslateAzureDiskStorageClass},
        // Azure File's parameters need no translation.
        {kAzureFilePlugin,
         [](kube::StorageClass sc) -> base::Result<kube::StorageClass> { return sc; }},
        {kVspherePlugin,
         [](kube::StorageClass sc) -> base::Result<kube::StorageClass> {
           return TranslateVsphereStorageClass(std::move(sc));
         }},
        {kPortworxPlugin,
         [](kube::StorageClass sc) -> base::Result<kube::StorageClass> {
           return TranslatePortworxStorageClass(std::move(sc));
         }},
    }};

}  // namespace

base::Result<kube::StorageClass> TranslateInTreeStorageClassToCsi(
    std::string_view in_tree_plugin, const kube::StorageClass& storage_class) {
  for (const auto& [plugin, translate] : kStorageClassTranslators) {
    if (plugin == in_tree_plugin) return translate(storage_class);
  }
  return base::Error("could not find in-tree storage class parameter translation logic for " +
                     GoQuote(in_tree_plugin));
}

}  // namespace migration
