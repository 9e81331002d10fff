// The sidecar reader lives in the public, header-only rootbake/sidecar_loader.h, so an engine
// can read the sidecar with the same rules rootbake checks it by.
#pragma once

#include "rootbake/sidecar_loader.h"
