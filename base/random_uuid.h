// RandomUuid: a random (version 4) UUID in its canonical text form, e.g.
// "3f1c2a9e-7b4d-4e21-9c8a-5d6e7f809a1b" - what Go's uuid.NewUUID() gives the
// sidecars for names that must differ per process.
#pragma once

#include <string>

namespace base {

std::string RandomUuid();

}  // namespace base
