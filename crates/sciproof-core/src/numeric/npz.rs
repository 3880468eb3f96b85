//! `.npz` archives: every member is compared as a `.npy` array. Locations name the archive and
//! the member: `arr.npz:weights[3, 1]`, `arr.npz:weights#shape`; the archive's member list is the
//! leaf `arr.npz#members`.

use super::NumericError;
use super::diff::{Collector, Difference};
use super::npy;
use super::stats::{Comparison, GroupBy, Statistics};
use super::value::Scalar;
use std::path::Path;

fn open(path: &Path, name: &str) -> Result<zip::ZipArchive<std::fs::File>, NumericError> {
    let file = std::fs::File::open(path).map_err(|e| NumericError::io(name, &e))?;
    zip::ZipArchive::new(file)
        .map_err(|e| NumericError(format!("{name} is not a valid .npz archive: {e}")))
}

fn members(
    archive: &zip::ZipArchive<std::fs::File>,
    name: &str,
) -> Result<Vec<String>, NumericError> {
    let mut names = Vec::new();
    for member in archive.file_names() {
        let member =
            member.map_err(|e| NumericError(format!("{name} is not a valid .npz archive: {e}")))?;
        names.push(member.into_owned());
    }
    names.sort();
    Ok(names)
}

fn member_label(name: &str) -> &str {
    name.strip_suffix(".npy").unwrap_or(name)
}

/// Checks every member of an archive.
pub fn validate(path: &Path, name: &str) -> Result<(), NumericError> {
    let mut archive = open(path, name)?;
    for member in members(&archive, name)? {
        let mut entry = archive
            .by_name(&member)
            .map_err(|e| NumericError(format!("{name}: cannot read member {member}: {e}")))?;
        let label = format!("{name}:{}", member_label(&member));
        let header = npy::read_header(&mut entry, &label)?;
        let mut sink = std::io::sink();
        let copied = std::io::copy(&mut entry, &mut sink)
            .map_err(|e| NumericError(format!("{label}: {e}")))?;
        if copied < header.data_len() {
            return Err(NumericError(format!(
                "{label} holds {copied} bytes of data but its header announces {}",
                header.data_len()
            )));
        }
    }
    Ok(())
}

/// Compares two archives member by member.
pub fn compare_files(
    recorded: &Path,
    found: &Path,
    recorded_name: &str,
    found_name: &str,
    display: &str,
    rtol: f64,
    atol: f64,
) -> Result<Comparison, NumericError> {
    let mut e = open(recorded, recorded_name)?;
    let mut a = open(found, found_name)?;
    let (em, am) = (members(&e, recorded_name)?, members(&a, found_name)?);
    let mut out = Collector::new();
    let mut statistics = Statistics::new(GroupBy::Array);
    let keys = |m: &[String]| Scalar::Keys(m.iter().map(|s| member_label(s).to_string()).collect());
    if let Some(d) = super::rule::compare_values(
        &format!("{display}#members"),
        &keys(&em),
        &keys(&am),
        rtol,
        atol,
    ) {
        out.push(d);
    }
    for member in em.iter().filter(|m| am.contains(m)) {
        let prefix = format!("{display}:{}", member_label(member));
        let mut er = e.by_name(member).map_err(|err| {
            NumericError(format!(
                "{recorded_name}: cannot read member {member}: {err}"
            ))
        })?;
        let mut ar = a.by_name(member).map_err(|err| {
            NumericError(format!("{found_name}: cannot read member {member}: {err}"))
        })?;
        let member_comparison = npy::compare_streams(
            &mut er,
            &mut ar,
            recorded_name,
            found_name,
            &prefix,
            rtol,
            atol,
        )?;
        let listed: Vec<Difference> = member_comparison
            .differences
            .into_iter()
            .filter(|d| d.kind != super::Kind::Summary)
            .collect();
        // every differing element, or the differing shape and dtype leaves when the elements
        // were not compared
        let total = member_comparison.statistics.total();
        let count = (total.outside).max(listed.len() as u64);
        out.absorb(listed, count);
        statistics
            .groups
            .extend(member_comparison.statistics.groups);
    }
    Ok(Comparison {
        differences: out.finish(Vec::new()),
        statistics,
    })
}

/// The element at `index` of member `member` (without `.npy`) of an archive, or `None` when
/// the member or the index does not exist.
pub fn element_at(
    path: &Path,
    name: &str,
    member: &str,
    index: &[u64],
) -> Result<Option<crate::numeric::value::Scalar>, NumericError> {
    let mut archive = open(path, name)?;
    let Ok(mut entry) = archive.by_name(&format!("{member}.npy")) else {
        return Ok(None);
    };
    npy::element_from_stream(&mut entry, &format!("{name}:{member}"), index)
}

/// NumPy `.npz` archives: every member compared as a `.npy` array.
pub struct Npz;

impl super::format::NumericFormat for Npz {
    fn suffixes(&self) -> &'static [&'static str] {
        &[".npz"]
    }
    fn media_type(&self) -> &'static str {
        "application/zip"
    }
    fn reference_reads_claims(&self) -> bool {
        false
    }
    fn validate(&self, path: &Path, name: &str) -> Result<(), NumericError> {
        validate(path, name)
    }
    fn compare(
        &self,
        pair: &super::format::Pair,
        rtol: f64,
        atol: f64,
    ) -> Result<Comparison, NumericError> {
        compare_files(
            pair.recorded,
            pair.found,
            pair.recorded_name,
            pair.found_name,
            pair.display_name,
            rtol,
            atol,
        )
    }
    fn grouped_by(&self) -> GroupBy {
        GroupBy::Array
    }
    fn valid_location(&self, location: &str) -> bool {
        npy::parse_array_location(location).is_some()
    }
    fn location_example(&self) -> &'static str {
        "weights[0, 1]"
    }
    fn canonical_location(&self, location: &str) -> Option<String> {
        npy::canonical_array_location(location)
    }
    /// `member[i, j]`, read directly at the element's position.
    fn value_at(
        &self,
        _documents: &mut super::format::Documents,
        path: &Path,
        name: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        match npy::parse_array_location(location) {
            Some((member, index)) => element_at(path, name, member, &index),
            None => Ok(None),
        }
    }
    fn address(&self, location: &str) -> Option<crate::json::Object> {
        npy::array_address(location, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn npy_bytes(values: &[f64], shape: &str) -> Vec<u8> {
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        crate::numeric::npy::tests::npy_file_bytes("<f8", false, shape, &data)
    }

    fn npz(path: &Path, members: &[(&str, Vec<u8>)]) {
        let mut w = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        for (name, data) in members {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            w.start_file(*name, options).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap();
    }

    #[test]
    fn npz_members_are_compared_as_npy_with_the_member_in_the_location() {
        let dir = tempfile::tempdir().unwrap();
        let e = dir.path().join("e.npz");
        let a = dir.path().join("a.npz");
        npz(
            &e,
            &[
                ("weights.npy", npy_bytes(&[1.0, 2.0, 3.0, 4.0], "(2, 2)")),
                ("bias.npy", npy_bytes(&[0.5], "(1,)")),
            ],
        );
        npz(
            &a,
            &[
                ("weights.npy", npy_bytes(&[1.0, 2.0, 3.0, 4.5], "(2, 2)")),
                ("bias.npy", npy_bytes(&[0.5], "(1,)")),
            ],
        );
        validate(&e, "e.npz").unwrap();
        let d = compare_files(&e, &a, "e.npz", "a.npz", "arr.npz", 1e-9, 0.0)
            .unwrap()
            .differences;
        let messages: Vec<&str> = d.iter().map(|x| x.message.as_str()).collect();
        assert_eq!(
            messages,
            ["arr.npz:weights[1, 1]: recorded 4.0, found 4.5 (rtol=1e-09, atol=0.0)"]
        );
        // statistics per member, in the order of their names
        let c = compare_files(&e, &a, "e.npz", "a.npz", "arr.npz", 1e-9, 0.0).unwrap();
        let groups: Vec<(&str, u64, u64, u64)> = c
            .statistics
            .groups
            .iter()
            .map(|g| (g.name.as_str(), g.values, g.identical, g.outside))
            .collect();
        assert_eq!(
            groups,
            [("arr.npz:bias", 1, 1, 0), ("arr.npz:weights", 4, 3, 1)]
        );
        assert_eq!(
            c.statistics.groups[1]
                .largest_abs
                .as_ref()
                .unwrap()
                .location,
            "arr.npz:weights[1, 1]"
        );
        npz(
            &a,
            &[("weights.npy", npy_bytes(&[1.0, 2.0, 3.0, 4.0], "(2, 2)"))],
        );
        let d = compare_files(&e, &a, "e.npz", "a.npz", "arr.npz", 1e-9, 0.0)
            .unwrap()
            .differences;
        assert_eq!(
            d[0].message,
            "arr.npz#members: recorded ['bias', 'weights'], found ['weights']"
        );
        assert_eq!(d.len(), 1);
        std::fs::write(&a, b"not a zip").unwrap();
        assert!(
            validate(&a, "a.npz")
                .unwrap_err()
                .0
                .starts_with("a.npz is not a valid .npz archive")
        );
    }
}
