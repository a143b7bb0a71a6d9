//! Finds the offline model for tests: `HEAT_TEST_MODEL`, else the installed
//! default. With `HEAT_REQUIRE_MODEL` set (CI), a missing model is a failure.

use std::path::PathBuf;

pub fn model_path() -> Option<PathBuf> {
    let found = std::env::var_os("HEAT_TEST_MODEL").map(PathBuf::from).or_else(|| {
        let installed = heat::model_store::default_model_path(&heat::store::data_dir().ok()?);
        installed.exists().then_some(installed)
    });
    if found.is_none() {
        assert!(
            std::env::var_os("HEAT_REQUIRE_MODEL").is_none(),
            "HEAT_REQUIRE_MODEL is set but no model is installed"
        );
        eprintln!("SKIPPED: no offline model (set HEAT_TEST_MODEL or run `heat model install`)");
    }
    found
}
