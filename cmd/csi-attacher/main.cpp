// csi-attacher: the CSI external-attacher sidecar. All logic is in run.cpp.
#include "cmd/csi-attacher/run.h"

int main(int argc, char** argv) { return csiattacher::Run(argc, argv); }
