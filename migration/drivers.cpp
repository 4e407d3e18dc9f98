#include "migration/drivers.h"

#include <algorithm>
#include <array>

namespace migration {

bool IsMigratedCsiDriverByName(std::string_view driver) {
  static constexpr std::array kDrivers = {kGcePdDriver,     kAwsEbsDriver,    kCinderDriver,
                                          kAzureDiskDriver, kAzureFileDriver, kVsphereDriver,
                                          kPortworxDriver};
  return std::find(kDrivers.begin(), kDrivers.end(), driver) != kDrivers.end();
}

}  // namespace migration
