// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title LoyaltyMultiToken
/// @notice Reference ERC-1155 rewards (one id per reward kind), minted by the platform relayer.
contract LoyaltyMultiToken is ERC1155, Ownable {
    /// @param uri_ Metadata URI template with the `{id}` placeholder (ERC-1155 convention).
    /// @param owner_ The platform relayer, the only account allowed to mint.
    constructor(string memory uri_, address owner_) ERC1155(uri_) Ownable(owner_) {}

    /// @dev Empty data: the platform attaches nothing to the receiver callback.
    function mint(address to, uint256 id, uint256 amount) external onlyOwner {
        _mint(to, id, amount, "");
    }
}
