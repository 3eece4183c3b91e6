import Foundation
import ReelKit
