import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The test kit's device catalogue is the fixture files as values: each entry equals what the evemu reader makes of
/// its `Tests/Fixtures/Devices` file, and every file there has an entry.
@Suite struct DeviceCatalogueTests {
    static let directory = Fixtures.projectFixtures.appendingPathComponent("Devices")

    @Test(arguments: DeviceCatalogue.all.map(\.file))
    func eachEntryIsItsFixtureFile(file: String) throws {
        let entry = try #require(DeviceCatalogue.all.first { $0.file == file }).description
        let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
        let read = try RecordingReader.readDescription(text: text, fileName: file)
        #expect(entry.identity == read.identity)
        #expect(entry.properties == read.properties)
        #expect(entry.codes == read.codes)
        #expect(entry.axes == read.axes)
        #expect(entry == read, "the whole description, path included")
    }

    @Test func everyFixtureFileIsInTheCatalogue() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".desc")
        }
        #expect(Set(files) == Set(DeviceCatalogue.all.map(\.file)))
        #expect(files.count == DeviceCatalogue.all.count)
    }
}
