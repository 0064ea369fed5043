import Foundation
print("bench")
