//! 3MF (3D Manufacturing Format, core specification): every solid as its own object in
//! one file, in mm.
//!
//! The file is a zip (OPC package) of three parts: `[Content_Types].xml`, `_rels/.rels`
//! (whose start part is the model) and `3D/3dmodel.model`, XML in the core namespace with
//! `unit="millimeter"`: one `<object type="model">` per solid, named, with its vertices
//! and triangles (counter-clockwise seen from outside, as the spec requires), and one
//! build item per object with no transform (the vertices are placed already).
//!
//! Invariants: vertex coordinates are written to the micrometre (6 decimals at most),
//! each vertex once, so shared vertices stay shared; the zip has no timestamps but the
//! format's 1980 default, so the same pieces give the same bytes.

use std::fmt::Write as _;
use std::io::{self, Cursor, Write};

use super::mesh::Mesh;
use crate::xml::escape;

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
</Types>
"#;

const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
"#;

/// A coordinate in mm to the micrometre, with no trailing zeros.
fn number(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// The model part: `title` for the metadata, each solid's name and mesh.
pub(crate) fn model(title: &str, solids: &[(&str, &Mesh)]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model unit=\"millimeter\" \
         xml:lang=\"en-US\" xmlns=\"http://schemas.microsoft.com/3dmanufacturing/core/2015/02\">\n",
    );
    let _ = writeln!(
        xml,
        "  <metadata name=\"Title\">{}</metadata>",
        escape(title)
    );
    let _ = writeln!(
        xml,
        "  <metadata name=\"Application\">polycover {}</metadata>",
        env!("CARGO_PKG_VERSION")
    );
    xml += "  <resources>\n";
    for (i, (name, mesh)) in solids.iter().enumerate() {
        let _ = writeln!(
            xml,
            "    <object id=\"{}\" type=\"model\" name=\"{}\">\n      <mesh>\n        <vertices>",
            i + 1,
            escape(name)
        );
        for v in &mesh.vertices {
            let _ = writeln!(
                xml,
                "          <vertex x=\"{}\" y=\"{}\" z=\"{}\"/>",
                number(v[0]),
                number(v[1]),
                number(v[2])
            );
        }
        xml += "        </vertices>\n        <triangles>\n";
        for t in &mesh.triangles {
            let _ = writeln!(
                xml,
                "          <triangle v1=\"{}\" v2=\"{}\" v3=\"{}\"/>",
                t[0], t[1], t[2]
            );
        }
        xml += "        </triangles>\n      </mesh>\n    </object>\n";
    }
    xml += "  </resources>\n  <build>\n";
    for i in 0..solids.len() {
        let _ = writeln!(xml, "    <item objectid=\"{}\"/>", i + 1);
    }
    xml += "  </build>\n</model>\n";
    xml
}

/// Writes the 3MF package of `solids` (name, mesh) titled `title`.
///
/// # Errors
///
/// What writing to `w` gives, and the zip writer's failures as [`io::Error`]s.
pub(crate) fn write(w: &mut dyn Write, title: &str, solids: &[(&str, &Mesh)]) -> io::Result<()> {
    // The zip writer seeks back to fill in sizes: build it in memory, then copy.
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let parts = [
        ("[Content_Types].xml", CONTENT_TYPES.to_string()),
        ("_rels/.rels", RELS.to_string()),
        ("3D/3dmodel.model", model(title, solids)),
    ];
    for (name, text) in parts {
        zip.start_file(name, deflated).map_err(io::Error::other)?;
        zip.write_all(text.as_bytes())?;
    }
    let bytes = zip.finish().map_err(io::Error::other)?.into_inner();
    w.write_all(&bytes)
}

impl Mesh {
    /// Writes `solids` (each named) as one 3MF package titled `title`.
    ///
    /// # Errors
    ///
    /// What `w` returns.
    pub fn write_3mf(w: &mut dyn Write, title: &str, solids: &[(&str, &Mesh)]) -> io::Result<()> {
        write(w, title, solids)
    }

    /// The 3MF model XML of `solids` titled `title` (what [`Mesh::write_3mf`] zips).
    pub fn model_3mf(title: &str, solids: &[(&str, &Mesh)]) -> String {
        model(title, solids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_to_the_micrometre() {
        assert_eq!(number(10.0), "10");
        assert_eq!(number(9.9), "9.9");
        assert_eq!(number(23.900000000000002), "23.9");
        assert_eq!(number(-0.0000001), "0");
        assert_eq!(number(0.1), "0.1");
    }
}
