#include "migration/drivers.h"

#include <array>
#include <utility>

namespace migration {
namespace {

// {in-tree plugin, CSI driver}, docs/migration.md §1.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kPlugins = {{
    {kGcePdPlugin, kGcePdDriver},
    {kAwsEbsPlugin, kAwsEbsDriver},
    {kCinderPlugin, kCinderDriver},
    {kAzureDiskPlugin, kAzureDiskDriver},
    {kAzureFilePlugin, kAzureFileDriver},
    {kVspherePlugin, kVsphereDriver},
    {kPortworxPlugin, kPortworxDriver},
}};

}  // namespace

std::optional<std::string_view> InTreePluginOf(std::string_view driver) {
  for (const auto& [plugin, csi_driver] : kPlugins) {
    if (csi_driver == driver) return plugin;
  }
  return std::nullopt;
}

bool IsMigratedCsiDriverByName(std::string_view driver) {
  return InTreePluginOf(driver).has_value();
}

}  // namespace migration
