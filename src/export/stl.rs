//! Binary STL: the triangles of one or more solids, in mm (the format has no units;
//! slicers take mm).
//!
//! Invariant: the triangles are written as the meshes give them (counter-clockwise seen
//! from outside) with their outward unit normals, so a reader that checks orientation
//! finds each solid closed and consistently oriented. Coordinates are `f32`, the format's
//! own; every copy of a shared vertex rounds to the same `f32`, so the mesh stays closed.

use std::io::{self, Write};

use super::mesh::Mesh;

/// Writes the triangles of every mesh in `meshes` as one binary STL.
///
/// # Errors
///
/// What writing to `w` gives, and an [`io::ErrorKind::Other`] error for more than
/// 2^32 triangles, which the format cannot count.
pub(crate) fn write(w: &mut dyn Write, meshes: &[&Mesh]) -> io::Result<()> {
    let mut triangles = Vec::new();
    for mesh in meshes {
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let point = |v: u32| stl_io::Vertex::new(mesh.vertices[v as usize].map(|x| x as f32));
            triangles.push(stl_io::Triangle {
                normal: stl_io::Normal::new(mesh.normal(t).map(|x| x as f32)),
                vertices: tri.map(point),
            });
        }
    }
    // The count is a u32 in the format.
    if u32::try_from(triangles.len()).is_err() {
        return Err(io::Error::other(
            "more than 2^32 triangles for one STL file",
        ));
    }
    stl_io::write_stl(&mut WriteRef(w), triangles.iter())
}

/// `stl_io` takes a sized writer.
struct WriteRef<'a>(&'a mut dyn Write);

impl Write for WriteRef<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl Mesh {
    /// Writes `meshes` as one binary STL file.
    ///
    /// # Errors
    ///
    /// What `w` returns.
    pub fn write_stl(w: &mut dyn Write, meshes: &[&Mesh]) -> io::Result<()> {
        write(w, meshes)
    }
}
