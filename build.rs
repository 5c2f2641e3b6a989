fn main() {
    // Only the Node-API binding needs napi-build's link arguments.
    if std::env::var_os("CARGO_FEATURE_NAPI").is_some() {
        napi_build::setup();
    }
}
